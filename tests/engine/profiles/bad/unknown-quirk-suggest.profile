# expect: 3:19: unknown quirk 'legacy-inval'; did you mean 'legacy-einval'?
name x
quirks fixed-rate legacy-inval
