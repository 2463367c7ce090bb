module example.com/npe-lang703

go 1.22
