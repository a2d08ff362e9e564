# expect: 3:19: quirk 'fixed_rate' is listed twice
name x
quirks fixed-rate fixed_rate
