module example.com/missingor

go 1.22
