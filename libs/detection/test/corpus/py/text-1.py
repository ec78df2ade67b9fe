from pathlib import Path

class Thing:
    pass
