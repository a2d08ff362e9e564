# expect: 4:28: expected a step after 'step', as in 'step 16x8'
name x
format NV12
  size 48x32-1920x1088 step
