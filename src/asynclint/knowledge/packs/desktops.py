"""Desktops driven in process for computer-use environments: pyautogui's input, python-xlib's X11 client.

Every pyautogui mouse or keyboard action ends with ``time.sleep(pyautogui.PAUSE)`` (0.1 s unless
the project sets it; ``_handlePause``), and ``duration=``/``interval=`` add tweened moves and
per-key sleeps on top: each call holds the thread for a tenth of a second or more. python-xlib
talks to the X server over its socket in the calling thread: ``Display()`` connects and reads the
server's setup, ``get_image`` copies the requested rectangle's pixels (a full HD screen is 8 MB
over the socket: tens of milliseconds). Neither library has an async API.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_PYAUTOGUI = "source: pkg pyautogui 0.9.54 pyautogui/__init__.py (_handlePause: time.sleep(PAUSE), PAUSE = 0.1)"
_XLIB = "source: pkg python-xlib 0.33 Xlib/display.py (Display), Xlib/xobject/drawable.py (Drawable.get_image)"
#: Actions decorated with ``_genericPyAutoGUIChecks`` that pause at the end (``move``, ``drag`` and
#: ``write`` are aliases of ``moveRel``, ``dragRel`` and ``typewrite``).
_ACTIONS = (
    "click leftClick rightClick middleClick doubleClick tripleClick mouseDown mouseUp moveTo moveRel move "
    "dragTo dragRel drag scroll hscroll vscroll keyDown keyUp press typewrite write hotkey"
)
_WINDOW = "Xlib.xobject.drawable.Window"

APIS: tuple[BlockingApi, ...] = (
    *many("sleep", "sleep", "to-thread", _ACTIONS, "pyautogui.", source=_PYAUTOGUI),
    *many("sdk", "network", "to-thread", "Display", "Xlib.display.", source=_XLIB, what="connects to the X server"),
    *many(
        "sdk",
        "network",
        "to-thread",
        "get_image",
        f"{_WINDOW}.",
        source=_XLIB,
        what="copies the screen's pixels from the X server",
    ),
)

RETURNS: dict[str, str] = {
    # ``Display.screen()`` is the setup's screen struct; its ``root`` field is the root window.
    "Xlib.display.Display.screen()": "Xlib.protocol.display.Screen",
    "Xlib.protocol.display.Screen.root": _WINDOW,
    "Xlib.xobject.drawable.Drawable": _WINDOW,
}
