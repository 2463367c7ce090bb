module example.com/packagename

go 1.22
