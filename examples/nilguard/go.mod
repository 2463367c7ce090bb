module example.com/nilguard

go 1.22
