module example.com/npe-math290

go 1.22
