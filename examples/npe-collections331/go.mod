module example.com/npe-collections331

go 1.22
