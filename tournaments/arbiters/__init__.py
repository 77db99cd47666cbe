"""The arbiters' area: its pages (`views`, `urls`, `forms`), who may do what (`permissions`) and the
co-arbiters a chief arbiter names (`co_arbiters`)."""
