module example.com/npe-math988b

go 1.22
