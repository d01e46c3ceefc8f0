"""Python tools the Agent Config fixtures (configs/) name as `fixture_tools.NAME`."""


def find_flights(origin: str, destination: str, date: str, max_stops: int = 1) -> list:
    """Finds flights between two airports on a date.

    Args:
      origin: The IATA code of the departure airport, e.g. "LIS".
      destination: The IATA code of the arrival airport.
      date: The day, as YYYY-MM-DD.
      max_stops: How many stops are acceptable.
    """
    return []


def hold_seat(flight_id: str, seat: str | None = None) -> dict:
    """Holds a seat on a flight for 15 minutes."""
    return {}
