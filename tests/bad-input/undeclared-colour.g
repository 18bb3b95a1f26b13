Flag (a small colour puzzle made for nonoenum, free to use)
#d
   0:   #FFFFFF   white
   r:*  #FF0000   red
   u:@  #0000FF   blue
: rows
2u 4r
2q 4r
6r
: columns
2u 1r
2u 1r
3r
3r
3r
3r
