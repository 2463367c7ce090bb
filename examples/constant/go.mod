module example.com/constant

go 1.22
