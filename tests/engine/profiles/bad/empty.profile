# expect: 5:1: empty profile: expected a 'name' line and at least one 'format' block
# only comments

   	# and blank lines
