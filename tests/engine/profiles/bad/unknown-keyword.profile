# expect: 3:1: unknown keyword 'brightness' (docs/profiles.md lists the keywords)
name x
brightness 50
