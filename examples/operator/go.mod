module example.com/operator

go 1.22
