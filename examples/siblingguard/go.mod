module example.com/siblingguard

go 1.22
