module example.com/npe-math1115

go 1.22
