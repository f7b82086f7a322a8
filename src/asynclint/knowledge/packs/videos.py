"""Video and image files read or written inline: OpenCV's VideoCapture and VideoWriter, imageio's readers and writers.

``cv2.VideoCapture(path)`` opens the container and probes its streams through the FFmpeg backend
(``avformat_open_input`` and ``avformat_find_stream_info`` read and decode the first packets);
``cv2.VideoWriter(path, ...)`` opens the output file and the encoder. Each ``read`` (``grab`` +
``retrieve``) decodes a frame and each ``VideoWriter.write`` encodes one: CPU work in C++ that
``ERRWRAP2`` runs with the GIL released, so a worker thread frees the loop. The accessors stay
quiet: ``isOpened``, ``get``/``set`` of a property, ``VideoWriter_fourcc`` and ``VideoCapture.release``.
``VideoWriter.release`` finalizes the file: it drains the frames the encoder still holds (B-frames,
lookahead) and writes the container's trailer (an MP4's index).
imageio's ``imread``/``imwrite`` (v2, v3 and the top-level v2 names) pick a plugin by the file's
extension, then read and decode (or encode and write) the whole file. ``get_writer`` only opens a
writer (the ffmpeg plugin's ``_open`` stores the file name); its ``append_data`` encodes a frame
(the ffmpeg plugin starts ``ffmpeg`` on the first frame and pipes every frame to it, waiting while
the pipe is full), and its ``close`` closes ffmpeg's input and waits until ffmpeg has encoded the
frames it holds and written the file: often the costliest call of a recording. A writer entered by
``with`` is closed so at the block's end (``__exit__``).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_OPENCV = (
    "source: pkg opencv-python-headless 5.0.0.93 cv2/__init__.pyi (VideoCapture, VideoWriter); opencv "
    "modules/videoio/src/cap_ffmpeg_impl.hpp (open: avformat_open_input, avformat_find_stream_info); "
    "modules/python/src2 ERRWRAP2 (PyAllowThreads around the call)"
)
_RELEASE = (
    "source: pkg opencv-python-headless 5.0.0.93 cv2/__init__.pyi (VideoWriter.release); opencv "
    "modules/videoio/src/cap_ffmpeg_impl.hpp (CvVideoWriter_FFMPEG::close: icv_av_write_frame_FFMPEG with no "
    "frame until the encoder is drained, then av_write_trailer); ERRWRAP2 (PyAllowThreads around the call)"
)
_IMAGEIO = "source: pkg imageio 2.38.1 imageio/v2.py (imread, imwrite, mimread, mimwrite, volread, volwrite), v3.py"
_WRITER = (
    "source: pkg imageio 2.38.1 imageio/v2.py (get_writer -> imopen), imageio/plugins/ffmpeg.py (Writer._open "
    "stores the file name; _append_data starts imageio_ffmpeg.write_frames on the first frame, then sends each "
    "frame); pkg imageio-ffmpeg 0.8.1 imageio_ffmpeg/_io.py (write_frames: Popen, p.stdin.write per frame)"
)
_CLOSE = (
    "source: pkg imageio 2.38.1 imageio/core/format.py (Format.Writer.close -> _close; __exit__ calls close "
    "unless the block raised), imageio/plugins/ffmpeg.py "
    "(Writer._close: self._write_gen.close()); pkg imageio-ffmpeg 0.8.1 imageio_ffmpeg/_io.py (write_frames' "
    "finally: p.stdin.close(), then polls p until ffmpeg exits, ffmpeg_timeout 0 = wait for ever)"
)
_FINALIZE = "finalizes the video file: drains the frames the encoder holds and writes the trailer (C++, GIL released)"
_FINISH = "finishes the file: closes ffmpeg's input and waits for ffmpeg to encode the frames it holds and write it"
_OPEN_WRITER = "opens a video or image writer (picks the plugin by the file's extension; no frame is encoded yet)"
_DECODE = "decodes a video frame (C++, with the GIL released)"
_ENCODE = "encodes a video frame (C++, with the GIL released)"
_APPEND = "encodes a frame into the file (imageio's ffmpeg plugin pipes it to the ffmpeg process it starts first)"

_READ = {
    "imread": "reads and decodes a whole image file",
    "imwrite": "encodes and writes a whole image file",
    "mimread": "reads and decodes every frame of a file",
    "mimwrite": "encodes and writes every frame it is given",
    "mimsave": "encodes and writes every frame it is given",
    "volread": "reads and decodes a whole volume file",
    "volwrite": "encodes and writes a whole volume",
}

APIS: tuple[BlockingApi, ...] = (
    *many("fs", "disk-content", "to-thread", "VideoCapture VideoWriter", "cv2.", source=_OPENCV),
    *many("cpu", "cpu-heavy", "to-thread", "read grab retrieve", "cv2.VideoCapture.", source=_OPENCV, what=_DECODE),
    *many("cpu", "cpu-heavy", "to-thread", "write", "cv2.VideoWriter.", source=_OPENCV, what=_ENCODE),
    *many("fs", "disk-content", "to-thread", "release", "cv2.VideoWriter.", source=_RELEASE, what=_FINALIZE),
    *(
        api
        for module in ("imageio", "imageio.v2")
        for api in (
            *(
                api
                for name, what in _READ.items()
                for api in many("cpu", "cpu-heavy", "to-thread", name, f"{module}.", source=_IMAGEIO, what=what)
            ),
            *many("fs", "disk-metadata", "to-thread", "get_writer", f"{module}.", source=_WRITER, what=_OPEN_WRITER),
            *many(
                "cpu", "cpu-heavy", "to-thread", "append_data", f"{module}.get_writer.", source=_WRITER, what=_APPEND
            ),
            *many(
                "subprocess",
                "child-process",
                "to-thread",
                "close __exit__",
                f"{module}.get_writer.",
                source=_CLOSE,
                what=_FINISH,
            ),
        )
    ),
    *(
        api
        for name in ("imread", "imwrite")
        for api in many("cpu", "cpu-heavy", "to-thread", name, "imageio.v3.", source=_IMAGEIO, what=_READ[name])
    ),
)
