"""Accounts and roles: sign-up, the login and its throttle, the roles as groups, the audit log."""
