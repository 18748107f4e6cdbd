"""Many small shapes and words drawn as a few vertex lists: what the world map needs to
rebuild its labels and counters quickly (a pyglet Label costs milliseconds to make, a shape
a vertex list each; a map has hundreds).

`Mesh` gathers coloured triangles (rectangles, frames, lines, circles, stars, polygons) in
the order they are added, which is the order they are painted; `GlyphText` gathers the
glyphs of short one-line texts, one vertex list a font texture. `counter` draws the unit
counter of the hex view (gui_map.draw_counter: the side's colour, a NATO frame holding the
kind's symbol, the count) into them; `mark` draws a space's marks (production value,
victory city, capital, industrial complex).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import pyglet
from pyglet import gl

from clients.gui_map import FONT, SYMBOL, Colour, UnitLook, counter_width, font_pt
from clients.unit_shapes import placed

STAR: Colour = (246, 196, 32)
BADGE: Colour = (250, 248, 238)
EDGE: Colour = (40, 40, 44)
FACTORY: Colour = (52, 52, 58)

VERTEX_SOURCE = """#version 150 core
in vec2 position;
in vec4 colors;
in float hatch;
out vec4 vertex_colors;
out float vertex_hatch;

uniform WindowBlock
{
    mat4 projection;
    mat4 view;
} window;

uniform float scale;

void main()
{
    gl_Position = window.projection * window.view * vec4(position * scale, 0.0, 1.0);
    vertex_colors = colors;
    vertex_hatch = hatch;
}
"""

FRAGMENT_SOURCE = """#version 150 core
in vec4 vertex_colors;
in float vertex_hatch;
out vec4 final_colors;

void main()
{
    final_colors = vertex_colors;
    if (vertex_hatch > 0.5 && mod(gl_FragCoord.x + gl_FragCoord.y, 9.0) < 2.2) {
        final_colors = vec4(vertex_colors.rgb * 0.74, vertex_colors.a);
    }
}
"""


def program() -> Any:
    """The shader of meshes and map polygons: positions times a `scale` uniform, a colour a
    vertex, and screen-space hatching where `hatch` is 1."""
    return gl.current_context.create_program((VERTEX_SOURCE, "vertex"), (FRAGMENT_SOURCE, "fragment"))


class ScaledGroup(pyglet.graphics.Group):
    """Draws with `program()`, positions times `scale()` (a callable, read at each draw)."""

    def __init__(self, prog: Any, scale: Any, order: int = 0, parent: pyglet.graphics.Group | None = None) -> None:
        super().__init__(order=order, parent=parent)
        self.program = prog
        self.scale = scale

    def set_state(self) -> None:
        self.program.use()
        self.program["scale"] = float(self.scale())
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)

    def unset_state(self) -> None:
        gl.glDisable(gl.GL_BLEND)
        self.program.stop()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


def _one() -> float:
    return 1.0


class Mesh:
    """Coloured triangles in pixels, painted in the order they were added."""

    def __init__(self) -> None:
        self.pos: list[float] = []
        self.col: list[int] = []
        self.idx: list[int] = []
        self.hatch: list[float] = []
        #: 1.0 while what is added is to be hatched (as impassable land is)
        self.hatching = 0.0

    def __bool__(self) -> bool:
        return bool(self.idx)

    def _add(self, pts: Sequence[tuple[float, float]], tris: Sequence[int], colour: Sequence[int]) -> None:
        base = len(self.pos) // 2
        for x, y in pts:
            self.pos += (x, y)
        rgba = (*colour[:3], colour[3] if len(colour) > 3 else 255)
        self.col += rgba * len(pts)
        self.hatch += (self.hatching,) * len(pts)
        self.idx += [base + i for i in tris]

    def fan(self, pts: Sequence[tuple[float, float]], colour: Sequence[int]) -> None:
        """A convex polygon (or one star-shaped about its first point)."""
        n = len(pts)
        tris = []
        for i in range(1, n - 1):
            tris += (0, i, i + 1)
        self._add(pts, tris, colour)

    def triangle(self, a: tuple[float, float], b: tuple[float, float], c: tuple[float, float],
                 colour: Sequence[int]) -> None:
        self._add((a, b, c), (0, 1, 2), colour)

    def rect(self, x: float, y: float, w: float, h: float, colour: Sequence[int]) -> None:
        if w > 0 and h > 0:
            self._add(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), (0, 1, 2, 0, 2, 3), colour)

    def frame(self, x: float, y: float, w: float, h: float, t: float, colour: Sequence[int]) -> None:
        """The border of a rectangle, `t` thick, inside it."""
        self.rect(x, y, w, t, colour)
        self.rect(x, y + h - t, w, t, colour)
        self.rect(x, y + t, t, h - 2 * t, colour)
        self.rect(x + w - t, y + t, t, h - 2 * t, colour)

    def line(self, x1: float, y1: float, x2: float, y2: float, t: float, colour: Sequence[int]) -> None:
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy)
        if not d:
            return
        nx, ny = -dy / d * t / 2, dx / d * t / 2
        self._add(((x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)),
                  (0, 1, 2, 0, 2, 3), colour)

    def ellipse(self, x: float, y: float, a: float, b: float, colour: Sequence[int]) -> None:
        n = max(10, min(40, int(max(a, b) * 1.6)))
        pts = [(x, y)] + [(x + a * math.cos(2 * math.pi * i / n), y + b * math.sin(2 * math.pi * i / n))
                          for i in range(n + 1)]
        self.fan(pts, colour)

    def circle(self, x: float, y: float, r: float, colour: Sequence[int]) -> None:
        self.ellipse(x, y, r, r, colour)

    def star(self, x: float, y: float, outer: float, inner: float, colour: Sequence[int], spikes: int = 5) -> None:
        pts = [(x, y)]
        for i in range(2 * spikes + 1):
            r = outer if i % 2 == 0 else inner
            a = math.pi / 2 + math.pi * i / spikes
            pts.append((x + r * math.cos(a), y + r * math.sin(a)))
        self.fan(pts, colour)

    def polygon(self, pts: Sequence[tuple[float, float]], colour: Sequence[int]) -> None:
        """Any simple polygon (ear clipping)."""
        from pyglet.extlibs import earcut

        flat = [c for p in pts for c in p]
        self._add(pts, earcut.earcut(flat), colour)

    def vertex_list(self, batch: pyglet.graphics.Batch, group: pyglet.graphics.Group, prog: Any = None) -> Any:
        """One indexed vertex list of everything added (None when nothing was)."""
        if not self.idx:
            return None
        n = len(self.pos) // 2
        prog = prog if prog is not None else group.program        # type: ignore[attr-defined]
        return prog.vertex_list_indexed(n, gl.GL_TRIANGLES, self.idx, batch, group, position=("f", self.pos),
                                        colors=("Bn", self.col), hatch=("f", self.hatch))


def pixel_group(order: int, parent: pyglet.graphics.Group | None = None) -> ScaledGroup:
    """A group that draws meshes in pixels."""
    return ScaledGroup(program(), _one, order, parent)


@functools.lru_cache(maxsize=64)
def _font(px: float, bold: bool) -> Any:
    return pyglet.font.load(FONT, font_pt(px), weight="bold" if bold else "normal")


def _px(px: float) -> float:
    return max(1.0, round(px * 2) / 2)       # half-pixel steps: a few fonts, not one a size


@functools.lru_cache(maxsize=8192)
def text_width(text: str, px: float, bold: bool = False) -> float:
    """How wide `text` is at `px` pixels, as GlyphText draws it."""
    glyphs, _ = _font(_px(px), bold).get_glyphs(text)
    return float(sum(round(g.advance) for g in glyphs))


class GlyphText:
    """One-line texts as glyph quads, gathered by font texture (a Label each is slow)."""

    def __init__(self) -> None:
        self._by_texture: dict[Any, tuple[Any, list[float], list[float], list[int]]] = {}
        #: the texts added, for whoever wants to know what is written
        self.texts: list[str] = []

    def __bool__(self) -> bool:
        return bool(self._by_texture)

    def add(self, text: str, x: float, y: float, px: float, colour: Sequence[int], bold: bool = False,
            anchor_x: str = "center", anchor_y: str = "center") -> float:
        """Write `text` `px` pixels tall at (x, y); returns its width."""
        if not text:
            return 0.0
        px = _px(px)
        font = _font(px, bold)
        glyphs, _ = font.get_glyphs(text)
        width = float(sum(round(g.advance) for g in glyphs))
        gx = x - {"center": width / 2, "right": width}.get(anchor_x, 0.0)
        if anchor_y == "center":
            base = y - (font.ascent + font.descent) / 2
        elif anchor_y == "top":
            base = y - font.ascent
        elif anchor_y == "bottom":
            base = y - font.descent
        else:
            base = y
        gx, base = round(gx), round(base)
        rgba = (*colour[:3], colour[3] if len(colour) > 3 else 255)
        for g in glyphs:
            v0, v1, v2, v3 = g.vertices
            if v2 > v0:
                entry = self._by_texture.get(g.owner)
                if entry is None:
                    entry = self._by_texture[g.owner] = (g.owner, [], [], [])
                _, pos, tex, col = entry
                pos += (v0 + gx, v1 + base, 0.0, v2 + gx, v1 + base, 0.0, v2 + gx, v3 + base, 0.0,
                        v0 + gx, v3 + base, 0.0)
                tex += g.tex_coords
                col += rgba * 4
            gx += round(g.advance)
        self.texts.append(text)
        return width

    def vertex_lists(self, batch: pyglet.graphics.Batch, parent: pyglet.graphics.Group | None = None,
                     order: int = 0) -> list[Any]:
        from pyglet.text.layout import TextLayoutGroup, get_default_layout_shader

        prog = get_default_layout_shader()
        out = []
        for texture, pos, tex, col in self._by_texture.values():
            n = len(pos) // 3
            quads = n // 4
            idx = [q * 4 + k for q in range(quads) for k in (0, 1, 2, 0, 2, 3)]
            group = TextLayoutGroup(texture, prog, order=order, parent=parent)
            out.append(prog.vertex_list_indexed(n, gl.GL_TRIANGLES, idx, batch, group, position=("f", pos),
                                                translation=("f", (0.0,) * (3 * n)), colors=("Bn", col),
                                                tex_coords=("f", tex), rotation=("f", (0.0,) * n),
                                                visible=("f", (1.0,) * n), anchor=("f", (0.0,) * (2 * n)),
                                                view_translation=("f", (0.0,) * (3 * n))))
        return out


# -- counters and marks ---------------------------------------------------------------------------
def counter(mesh: Mesh, text: GlyphText, x: float, y: float, h: float, colour: Colour, look: UnitLook,
            count: int | None) -> float:
    """The hex view's unit counter (gui_map.draw_counter), lower-left corner at (x, y), `h`
    tall, into `mesh` and `text`. Returns its width."""
    w = counter_width(h) if count is not None else h * 1.4
    edge = max(1.0, h * 0.05)
    mesh.rect(x, y, w, h, (16, 16, 18))
    mesh.rect(x + edge, y + edge, w - 2 * edge, h - 2 * edge, colour)
    m = h * 0.16
    fx, fy, fw, fh = x + m, y + m, h * 1.08, h - 2 * m
    line = max(1.0, h * 0.07)
    if look.shape:                      # a silhouette needs no frame: it fills the frame's place
        _symbol(mesh, text, look, fx, fy - m * 0.3, fw, fh + m * 0.6, colour, line)
    else:
        mesh.frame(fx, fy, fw, fh, line, SYMBOL)
        _symbol(mesh, text, look, fx + line, fy + line, fw - 2 * line, fh - 2 * line, colour, line)
    if count is not None:
        number = str(count)
        px = h * (0.62 if len(number) == 1 else 0.5)
        text.add(number, fx + fw + (x + w - fx - fw) / 2, y + h / 2, px, (*SYMBOL, 255), bold=True)
    return w


def _symbol(mesh: Mesh, text: GlyphText, look: UnitLook, x: float, y: float, w: float, h: float, colour: Colour,
            line: float) -> None:
    cx, cy = x + w / 2, y + h / 2
    s = look.symbol if not look.shape else "shape"
    white = SYMBOL
    if look.shape:
        for poly in placed(look.shape, x, y, w, h):
            mesh.fan(poly, white)
    elif s == "infantry":
        mesh.line(x, y, x + w, y + h, line, white)
        mesh.line(x, y + h, x + w, y, line, white)
    elif s == "armour":
        a, b = w * 0.36, h * 0.3
        mesh.ellipse(cx, cy, a, b, white)
        mesh.ellipse(cx, cy, max(0.5, a - line), max(0.5, b - line), colour)
    elif s == "artillery":
        mesh.circle(cx, cy, max(1.0, h * 0.24), white)
    elif s == "aircraft":
        mesh.line(cx, y + h * 0.1, cx, y + h * 0.92, line, white)
        mesh.line(x + w * 0.12, y + h * 0.62, x + w * 0.88, y + h * 0.62, line * 1.2, white)
        mesh.line(cx - w * 0.17, y + h * 0.18, cx + w * 0.17, y + h * 0.18, line, white)
    elif s == "transport":
        r = max(1.0, h * 0.15)
        mesh.line(x + w * 0.18, cy + h * 0.08, x + w * 0.82, cy + h * 0.08, line, white)
        for wx in (x + w * 0.3, x + w * 0.7):
            mesh.circle(wx, cy - h * 0.16, r, white)
            mesh.circle(wx, cy - h * 0.16, max(0.5, r - line), colour)
    elif s == "supply":
        mesh.rect(x, y, w, h * 0.3, white)
    elif s == "naval":
        mesh.line(x + w * 0.1, cy, x + w * 0.9, cy, line * 1.2, white)
        mesh.line(x + w * 0.1, cy, x + w * 0.25, cy - h * 0.25, line, white)
        mesh.line(x + w * 0.9, cy, x + w * 0.75, cy - h * 0.25, line, white)
    if s == "letter" or look.tagged:
        px = h * (0.78 if s == "letter" else 0.42)
        lx, ly = (cx, cy) if s == "letter" else (x + px * 0.45, y + h - px * 0.5)
        if look.tagged:
            mesh.rect(lx - px * 0.42, ly - px * 0.5, px * 0.84, px, colour)
        text.add(look.letter, lx, ly, px, (*white, 255), bold=True)


def mark(mesh: Mesh, text: GlyphText, what: str, arg: Any, x: float, y: float, m: float,
         ring: Colour = (60, 60, 60)) -> None:
    """A mark `m` pixels wide centred on (x, y): `ipc` (the production value `arg`),
    `victory` (a star), `capital` (a roundel in the colour `ring`, a star inside),
    `factory` (an industrial complex, drawn in `ring`)."""
    r = m / 2
    edge = max(1.0, m * 0.08)
    if what == "ipc":
        mesh.circle(x, y, r, EDGE)
        mesh.circle(x, y, r - edge, BADGE)
        value = float(arg)
        label = str(int(value)) if value.is_integer() else str(arg)
        text.add(label, x, y, m * (0.68 if len(label) < 2 else 0.58), (24, 24, 28, 255), bold=True)
    elif what == "victory":
        mesh.star(x, y, r * 1.08, r * 0.5, (40, 30, 0))
        mesh.star(x, y, r * 0.8, r * 0.34, STAR)
    elif what == "capital":
        mesh.circle(x, y, r, (20, 20, 22))
        mesh.circle(x, y, r - edge, ring)
        mesh.star(x, y, r * 0.78, r * 0.34, STAR)
    elif what == "factory":
        mesh.rect(x - r, y - r, m, m, EDGE)
        mesh.rect(x - r + edge, y - r + edge, m - 2 * edge, m - 2 * edge, BADGE)
        w, h = m * 0.72, m * 0.62
        fx, fy = x - w / 2, y - h / 2
        # a saw-tooth roof and a chimney
        mesh.rect(fx, fy, w, h * 0.36, ring)
        for i in range(2):
            tx = fx + w * (0.4 + 0.3 * i)
            mesh.triangle((tx, fy + h * 0.36), (tx + w * 0.3, fy + h * 0.36), (tx + w * 0.3, fy + h * 0.64), ring)
        mesh.rect(fx, fy + h * 0.36, w * 0.4, h * 0.14, ring)
        mesh.rect(fx + w * 0.12, fy + h * 0.36, w * 0.2, h * 0.64, ring)


# -- a picture of what does not change ----------------------------------------------------------
_COPY_VERTEX = """#version 150 core
in vec2 position;
out vec2 uv;
void main()
{
    gl_Position = vec4(position, 0.0, 1.0);
    uv = position * 0.5 + 0.5;
}
"""

_COPY_FRAGMENT = """#version 150 core
in vec2 uv;
out vec4 final_colors;
uniform sampler2D picture;
void main()
{
    final_colors = texture(picture, uv);
}
"""


def _pixel_ratio(framebuffer_width: int) -> float | None:
    """Framebuffer pixels per window unit for the window whose context is current."""
    for window in getattr(pyglet.app, "windows", ()):
        if getattr(window, "context", None) is gl.current_context and window.width:
            return framebuffer_width / window.width
    return None


class FrameCache:
    """Draws something costly once into a texture the size of the frame, then copies the
    texture to the frame until its key changes: the map's thousands of triangles cost a
    software renderer more than a frame, the copy almost nothing. What is drawn must not
    depend on what is already in the frame (it is drawn on the clear colour)."""

    def __init__(self) -> None:
        self.texture: Any = None
        self.fbo: Any = None
        self.key: Any = None
        self.size = (0, 0)
        self._program: Any = None
        self._quad: Any = None
        #: how many times the picture was drawn again (for tests and benchmarks)
        self.renders = 0
        #: copy with glBlitFramebuffer where the frame is not multisampled (else, or when
        #: False, draw the picture as a textured quad)
        self.blit = True

    def draw(self, key: Any, render: Any, region: tuple[float, float, float, float] | None = None) -> None:
        """Copy the picture drawn by `render()` for `key` to the frame (drawing it first if
        the key changed); only the part in `region` (x, y, width, height in the window's
        coordinates) when given: nothing else of it is shown."""
        from ctypes import byref

        viewport = (gl.GLint * 4)()
        gl.glGetIntegerv(gl.GL_VIEWPORT, viewport)
        w, h = viewport[2], viewport[3]
        if w <= 0 or h <= 0:
            render()
            return
        x0, y0, x1, y1 = 0, 0, w, h
        ratio = _pixel_ratio(w)
        if region is not None and ratio is not None:
            rx, ry, rw, rh = region
            x0, y0 = max(0, math.floor(rx * ratio)), max(0, math.floor(ry * ratio))
            x1, y1 = min(w, math.ceil((rx + rw) * ratio)), min(h, math.ceil((ry + rh) * ratio))
            if x1 <= x0 or y1 <= y0:
                return
        prev, prev_read = gl.GLint(), gl.GLint()
        gl.glGetIntegerv(gl.GL_DRAW_FRAMEBUFFER_BINDING, byref(prev))
        gl.glGetIntegerv(gl.GL_READ_FRAMEBUFFER_BINDING, byref(prev_read))
        if (w, h) != self.size or self.fbo is None:
            self._make(w, h)
        if key != self.key:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo.id)
            try:
                gl.glClear(gl.GL_COLOR_BUFFER_BIT)
                gl.glEnable(gl.GL_SCISSOR_TEST)
                gl.glScissor(x0, y0, x1 - x0, y1 - y0)
                render()
            finally:
                gl.glDisable(gl.GL_SCISSOR_TEST)
                gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, prev.value)
                gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, prev_read.value)
            self.key = key
            self.renders += 1
        samples = gl.GLint()
        gl.glGetIntegerv(gl.GL_SAMPLE_BUFFERS, byref(samples))
        if samples.value == 0 and self.blit:
            # a copy of memory: much cheaper than drawing the texture with a software renderer
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self.fbo.id)
            gl.glBlitFramebuffer(x0, y0, x1, y1, x0, y0, x1, y1, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, prev_read.value)
            return
        prog = self._program     # a multisampled frame takes no copy: draw the texture on it
        prog.use()
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(self.texture.target, self.texture.id)
        prog["picture"] = 0
        gl.glDisable(gl.GL_BLEND)
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(x0, y0, x1 - x0, y1 - y0)
        self._quad.draw(gl.GL_TRIANGLES)
        gl.glDisable(gl.GL_SCISSOR_TEST)
        prog.stop()

    def _make(self, w: int, h: int) -> None:
        from pyglet.image import Framebuffer, Texture

        self.delete()
        self.texture = Texture.create(w, h, min_filter=gl.GL_NEAREST, mag_filter=gl.GL_NEAREST)
        self.fbo = Framebuffer()
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo.id)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, self.texture.target,
                                  self.texture.id, 0)
        self.size = (w, h)
        self.key = None
        if self._program is None:
            self._program = gl.current_context.create_program((_COPY_VERTEX, "vertex"), (_COPY_FRAGMENT, "fragment"))
            self._quad = self._program.vertex_list(6, gl.GL_TRIANGLES,
                                                   position=("f", (-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1)))

    def delete(self) -> None:
        if self.fbo is not None:
            self.fbo.delete()
            self.fbo = None
        if self.texture is not None:
            self.texture.delete()
            self.texture = None
