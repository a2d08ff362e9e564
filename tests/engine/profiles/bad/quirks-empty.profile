# expect: 3:7: expected quirk names after 'quirks', as in 'quirks legacy-einval'
name x
quirks
