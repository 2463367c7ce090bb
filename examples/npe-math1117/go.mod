module example.com/npe-math1117

go 1.22
