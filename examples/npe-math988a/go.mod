module example.com/npe-math988a

go 1.22
