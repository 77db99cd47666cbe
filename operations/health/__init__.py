"""/health/: the state of every part the site runs on, as JSON for load balancers and monitors."""
