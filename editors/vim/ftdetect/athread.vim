" Vim filetype detection: athread specifications (editors/README.md).
au BufRead,BufNewFile *.athread setfiletype athread
