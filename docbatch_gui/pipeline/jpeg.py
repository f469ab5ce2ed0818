"""Every JPEG DocBatch writes: pages, thumbnails, OCR's turned pages, small images.

One encoder, libjpeg-turbo through simplejpeg, for one job. It takes the pixels where
they are (a pixmap's own memory, a Pillow image's buffer). Colour is written with
Pillow's chroma subsampling (4:2:0; simplejpeg's own default, 4:4:4, writes twice the
bytes). On a rendered page (901 × 1276 gray, quality 80) it takes 1.76 ms where Pillow took
1.97 ms (medians of 30 rounds alternating in one process), for the same bytes within
a tenth of a percent and the same fidelity (PSNR 42.9 dB against the page's pixels,
both): about a twentieth of what the render child spends on a page
(``bench/prepare.py``; docs/architecture.md, "What the render child costs a page").
"""

from __future__ import annotations

from typing import Any

__all__ = ["encode_image", "encode_pixels"]


def encode_pixels(pixels: Any, quality: int) -> bytes:
    """A JPEG of ``pixels``: a height × width array of gray levels, or height × width
    × 3 of RGB. The array may be a view (a turned or cropped page): it is made
    contiguous only when it is not."""
    # deferred: numpy and simplejpeg (70 ms): the window imports this module for its
    #   thumbnails, and needs them only when it makes one
    import numpy as np
    import simplejpeg

    gray = pixels.ndim == 2
    data = np.ascontiguousarray(pixels[:, :, None] if gray else pixels)
    # fastdct: libjpeg-turbo's fast integer DCT, a twentieth quicker (1.65 against
    # 1.74 ms a page); on a page at quality 80 its PSNR is the exact DCT's within 0.01 dB
    if gray:
        return simplejpeg.encode_jpeg(data, quality=quality, colorspace="GRAY", fastdct=True)
    return simplejpeg.encode_jpeg(
        data, quality=quality, colorspace="RGB", colorsubsampling="420", fastdct=True
    )


def encode_image(image: Any, quality: int) -> bytes:
    """A JPEG of a Pillow image: gray stays gray, any other mode is written as RGB."""
    if image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    # deferred: numpy (70 ms), as in encode_pixels
    import numpy as np

    return encode_pixels(np.asarray(image), quality)
