module example.com/npe-lang304

go 1.22
