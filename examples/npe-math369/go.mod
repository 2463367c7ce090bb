module example.com/npe-math369

go 1.22
