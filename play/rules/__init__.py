"""The rules of mobile chess as pure modules (no Django, no database), like ratings/engines/:
plain data in, plain data out, each rule a unit test with the specification's own numbers."""
