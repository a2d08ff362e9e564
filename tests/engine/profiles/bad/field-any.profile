# expect: 3:7: field 'any' is for requests; list the fields the device delivers (none, interlaced, ...)
name x
field any
