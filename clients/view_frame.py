"""Where a map sits on screen: its scale (`size`, pixels per map unit), its `offset` and the
screen `area` it is drawn in; fitting, zooming about a point, panning and centring. Shared by
the hex map (gui_map.MapView) and the world map (gui_world.WorldView), which differ only in
their bounds and zoom limits. No pyglet here."""

from __future__ import annotations

from abc import ABC, abstractmethod

Point = tuple[float, float]


class ViewFrame(ABC):
    """Pan and zoom for a map view; a view gives the three abstract methods below."""

    #: the smallest size `fit` gives, and the margin it leaves by default
    MIN_FIT = 0.05
    MARGIN = 12

    def _init_frame(self, size: float) -> None:
        self.size = size
        self.offset: Point = (0.0, 0.0)
        self.fit_size = size
        self.area = (0, 0, 100, 100)

    @abstractmethod
    def world(self, sid: str) -> Point:
        """A space's point, in pixels from the offset."""

    @abstractmethod
    def bounds(self) -> tuple[float, float, float, float]:
        """The map at size 1: x0, y0, x1, y1."""

    @abstractmethod
    def zoom_limits(self) -> tuple[float, float]:
        """The smallest and largest size a zoom may reach."""

    def fit(self, area: tuple[int, int, int, int], margin: int | None = None) -> None:
        """Scale and centre the whole map in `area` (x, y, width, height)."""
        margin = self.MARGIN if margin is None else margin
        self.area = area
        x0, y0, x1, y1 = self.bounds()
        ax, ay, aw, ah = area
        bw, bh = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.fit_size = max(self.MIN_FIT, min((aw - 2 * margin) / bw, (ah - 2 * margin) / bh))
        self.size = self.fit_size
        self.offset = (round(ax + aw / 2 - (x0 + x1) / 2 * self.size), round(ay + ah / 2 - (y0 + y1) / 2 * self.size))

    def zoom(self, factor: float, about: Point) -> bool:
        """Zoom by `factor` keeping the screen point `about` still. False if at a limit."""
        low, high = self.zoom_limits()
        new = min(max(self.size * factor, low), high)
        if abs(new - self.size) < 1e-9:
            return False
        f = new / self.size
        mx, my = about
        self.offset = (round(mx - (mx - self.offset[0]) * f), round(my - (my - self.offset[1]) * f))
        self.size = new
        return True

    def centre_on(self, sid: str) -> None:
        """Pan so that `sid` is in the middle of the map area."""
        ax, ay, aw, ah = self.area
        x, y = self.world(sid)
        self.offset = (round(ax + aw / 2 - x), round(ay + ah / 2 - y))

    def pan(self, dx: float, dy: float) -> None:
        self.offset = (round(self.offset[0] + dx), round(self.offset[1] + dy))

    def visible_rect(self) -> tuple[float, float, float, float]:
        """The part of the map's plane the area shows, in pixels from the offset: x0, y0, x1, y1."""
        ax, ay, aw, ah = self.area
        ox, oy = self.offset
        return ax - ox, ay - oy, ax + aw - ox, ay + ah - oy
