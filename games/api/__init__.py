"""The REST API of the tables side (/api/v1/): DRF views over games.services and selectors."""
