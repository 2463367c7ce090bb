module example.com/earlyreturn

go 1.22
