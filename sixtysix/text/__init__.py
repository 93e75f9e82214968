"""The table drawn as Rich text, from one seat's view and the public facts only.

The terminal (:mod:`sixtysix.play`), a remote seat and an environment's text render mode show
these renderables; what they show comes from the table service (:mod:`sixtysix.service`).
"""
