module example.com/factoriallog

go 1.22
