module example.com/npe-lang587

go 1.22
