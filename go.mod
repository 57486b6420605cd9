module github.com/boardd/boardd

go 1.25
