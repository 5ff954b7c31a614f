"""Build tooling for gradpad (site build, static server, site benchmark). Not shipped."""
