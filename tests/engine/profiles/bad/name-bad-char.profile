# expect: 2:6: profile name 'web/cam' may use only letters, digits, '-', '_' and '.'
name web/cam
