"""Settings: the validated model, the operator's settings file below the environment,
and secrets kept in the OS keyring."""
