module example.com/mid

go 1.22
