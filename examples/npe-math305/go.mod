module example.com/npe-math305

go 1.22
