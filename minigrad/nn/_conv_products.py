"""Convolution's three products on arrays: the correlation, its transpose and the weight's product.

For ``y = x ⋆ w`` (cross-correlation, as PyTorch's conv2d) with output gradient ``g``:

- ``correlate(x, w)`` is ``y``: per image, the weight ``[O, C*kh*kw]`` times the image's windows as
  columns ``[C*kh*kw, oh*ow]`` (im2col);
- ``correlate_transposed(g, w)`` is ``∂L/∂x``: per image, ``wᵀ @ g`` gives each window's share, and the
  windows are added back onto the image (col2im);
- ``correlate_weight(x, g)`` is ``∂L/∂w``: the sum over images of ``g @ windowsᵀ`` (computed as its transpose).

The windows are made a few images at a time, so a batch's window array never exists at once: for
W13's second convolution it is 42 MB, above the 32 MB up to which glibc keeps freed memory, so every
step mapped it afresh and took its page faults again (10k minor faults, ~7 ms of system time a
copy, twice a step). Groups are a leading dim of the weight (``[G, O/G, C/G*kh*kw]``) and of the
columns, so each group's product is a batched matmul.
"""

from __future__ import annotations

from .._workspace import work_array
from ._im2col import Geometry, add_windows_into, window_view

__all__ = ["correlate", "correlate_transposed", "correlate_weight"]

#: The window array of one chunk of images: about 2 MB, so it stays in cache between its copy and the product.
CHUNK_BYTES = 1 << 21


def _chunks(n: int, per_image: int, itemsize: int):
    """``(start, stop)`` of the image chunks whose windows take about :data:`CHUNK_BYTES`."""
    step = max(1, CHUNK_BYTES // max(1, per_image * itemsize))
    return [(start, min(start + step, n)) for start in range(0, n, step)]


def _window_buffer(xp, view, chunks: list):
    """One array for every chunk's windows (the first chunk is the largest), kept between calls: a new one
    is memory the allocator may have handed back to the OS, paged in again (W13: ~1.2k minor faults a step)."""
    return work_array(xp, "windows", (chunks[0][1],) + view.shape[1:], view.dtype)


def _windows_of(xp, view, start: int, stop: int, buffer):
    """The windows of images ``[start, stop)``, copied into ``buffer``: ``[stop - start, C, kh, kw, oh, ow]``."""
    windows = buffer[: stop - start]
    xp.copyto(windows, view[start:stop])
    return windows


#: The output width below which channels-first windows at a stride of 1 down the image are copied by rows (3x3
#: windows of 4.7 MB, one thread: ow 12 2.3 -> 1.6 ms, 24 2.9 -> 2.4, 32 0.96 -> 0.85; ow 64 0.64 -> 0.88, a loss).
SHORT_ROW = 48


def _channels_first_windows(xp, view, buffer, geo: Geometry):
    """A function ``(start, stop)`` -> the windows ``[stop - start, C, kh, kw, oh, ow]`` of images ``[start, stop)``
    of ``view``, in ``buffer``; its strided views are made once a call, not once a chunk (an ``as_strided`` is
    about 7 us: W13 made 88 a step)."""
    if geo.stride[0] == 1 and view.shape[2] > 1 and view.shape[5] < SHORT_ROW:
        return _windows_by_rows(xp, view, buffer, geo)
    return lambda start, stop: _windows_of(xp, view, start, stop, buffer)


def _windows_by_rows(xp, view, buffer, geo: Geometry):
    """:func:`_channels_first_windows` for a stride of 1 down the image, in two copies: each kernel column's
    shifted image columns ``[m, C, kw, R, ow]`` (R: the rows the windows use), then every window from those, whose
    ``oh x ow`` positions are one contiguous run of ``oh*ow`` numbers, where a copy from the image moves runs of
    ``ow``. W13's second convolution (ow = 24), one thread, the windows of 64 images: 2.9 -> 2.3-2.5 ms."""
    n, c, kh, kw, oh, ow = view.shape
    dh = geo.dilation[0]
    rows = dh * (kh - 1) + oh
    stride_of = view.strides
    shifted = xp.lib.stride_tricks.as_strided(
        view, (n, c, kw, rows, ow), (stride_of[0], stride_of[1], stride_of[3], stride_of[4], stride_of[5])
    )
    columns = work_array(xp, "window columns", (buffer.shape[0], c, kw, rows, ow), view.dtype)
    by_window = columns.strides
    windows = xp.lib.stride_tricks.as_strided(
        columns,
        (buffer.shape[0], c, kh, kw, oh, ow),
        (by_window[0], by_window[1], dh * by_window[3], by_window[2], by_window[3], by_window[4]),
    )

    def copy(start: int, stop: int):
        m = stop - start
        xp.copyto(columns[:m], shifted[start:stop])
        xp.copyto(buffer[:m], windows[:m])
        return buffer[:m]

    return copy


def _grouped(weight, groups: int):
    """``[O, C/G, kh, kw]`` -> ``[G, O/G, C/G*kh*kw]``."""
    o = weight.shape[0]
    return weight.reshape(groups, o // groups, -1)


def correlate(xp, x, weight, geo: Geometry, groups: int, bias=None):
    """``[N, C, H, W]`` correlated with ``[O, C/G, kh, kw]``, plus ``bias`` ``[O]`` if given: ``[N, O, oh, ow]``.

    The bias is added to each chunk's products while they are in cache (W13's second convolution, a [64, 64, 24,
    24] float32 output: 0.6 ms after the products)."""
    n, o = x.shape[0], weight.shape[0]
    oh, ow = geo.out_hw(x.shape, "conv2d()")
    if o // groups >= oh * ow:
        out = _correlate_channels_last(xp, x, weight, geo, groups, (oh, ow))
        if bias is not None:
            out += bias.reshape(1, -1, 1, 1)
        return out
    w = _grouped(weight, groups)
    rows = w.shape[2]  # C/G * kh * kw
    out = xp.empty((n, o, oh, ow), dtype=x.dtype)
    by_group = out.reshape(n, groups, o // groups, oh * ow)
    view = window_view(xp, x, geo)
    chunks = _chunks(n, rows * groups * oh * ow, x.itemsize)
    windows_of = _channels_first_windows(xp, view, _window_buffer(xp, view, chunks), geo)
    for start, stop in chunks:
        cols = windows_of(start, stop).reshape(stop - start, groups, rows, oh * ow)
        products = by_group[start:stop]
        xp.matmul(w, cols, out=products)
        if bias is not None:
            products += bias.reshape(groups, o // groups, 1)
    return out


def correlate_transposed(xp, g, weight, image_shape: tuple, geo: Geometry, groups: int):
    """``∂L/∂x`` of :func:`correlate` for the output gradient ``g`` ``[N, O, oh, ow]``: ``image_shape``."""
    if g.shape[2:] == (1, 1):
        return _spread_one_window(xp, g, weight, image_shape, geo, groups)
    if geo.stride == (1, 1):
        return _spread_by_shifts(xp, g, weight, image_shape, geo, groups)
    if groups == 1 and image_shape[1] > g.shape[3]:
        return _spread_channels_last(xp, g, weight, image_shape, geo)
    n, c, h, w = image_shape
    (kh, kw), (ph, pw) = geo.kernel, geo.padding
    oh, ow = g.shape[2], g.shape[3]
    wt = _grouped(weight, groups).transpose(0, 2, 1)  # [G, C/G*kh*kw, O/G]
    g_by_group = g.reshape(n, groups, g.shape[1] // groups, oh * ow)
    dx = xp.zeros(image_shape, dtype=g.dtype)
    for start, stop in _chunks(n, c * kh * kw * oh * ow, g.itemsize):
        shares = (wt @ g_by_group[start:stop]).reshape(stop - start, c, kh, kw, oh, ow)
        if ph or pw:
            padded = work_array(xp, "padded", (stop - start, c, h + 2 * ph, w + 2 * pw), g.dtype)
            padded.fill(0)
            add_windows_into(padded, shares, geo)
            dx[start:stop] = padded[:, :, ph : ph + h, pw : pw + w]
        else:
            add_windows_into(dx[start:stop], shares, geo)
    return dx


def _spread_channels_last(xp, g, weight, image_shape: tuple, geo: Geometry):
    """:func:`correlate_transposed` at a stride above 1 and one group, with the channels as the last axis.

    Each kernel offset ``(i, j)`` adds its shares onto every ``stride``-th pixel from ``(i*dh, j*dw)``. The
    padded image is kept as its ``sh*sw`` phases, ``[m, sh, sw, ceil(H'/sh), ceil(W'/sw), C]`` (pixel ``(Y,
    X)`` in phase ``(Y % sh, X % sw)`` at ``(Y // sh, X // sw)``), where that offset's adds are onto one
    phase, shifted, so each run is a whole row, ``ow*C`` contiguous numbers, instead of the ``ow`` strided
    numbers of a channels-first row (W17's second layer: 4). The shares of each offset are the product
    ``g`` ``[m*oh*ow, O]`` times the offset's ``weight`` ``[O, C]``. W17, one thread, no page faults: layer 2
    13.1 -> 4.4 ms, layer 3 8.7 -> 5.3 ms against the channels-first spread (adds of single channels'
    rows, 5.6 ms on layer 3 with channels-last pixels). Chosen where ``C > ow``: fewer channels make thin
    products.
    """
    n, c, h, w = image_shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = geo.kernel, geo.stride, geo.padding, geo.dilation
    o, oh, ow = g.shape[1], g.shape[2], g.shape[3]
    hq, wq = -(-(h + 2 * ph) // sh), -(-(w + 2 * pw) // sw)
    w_by_offset = xp.ascontiguousarray(weight.transpose(2, 3, 0, 1)).reshape(kh * kw, o, c)
    g_last = xp.ascontiguousarray(g.transpose(0, 2, 3, 1)).reshape(n * oh * ow, o)
    dx = xp.empty(image_shape, dtype=g.dtype)
    chunks = _chunks(n, kh * kw * c * oh * ow, g.itemsize)
    most = chunks[0][1]
    shares_buffer = work_array(xp, "shares", (kh * kw * most * oh * ow * c,), g.dtype)
    phases_buffer = work_array(xp, "phases", (most * sh * sw * hq * wq * c,), g.dtype)
    image_buffer = work_array(xp, "image", (most * hq * sh * wq * sw * c,), g.dtype)
    for start, stop in chunks:
        m = stop - start
        shares = shares_buffer[: kh * kw * m * oh * ow * c].reshape(kh * kw, m * oh * ow, c)
        xp.matmul(g_last[start * oh * ow : stop * oh * ow], w_by_offset, out=shares)
        shares = shares.reshape(kh, kw, m, oh, ow, c)
        phases = phases_buffer[: m * sh * sw * hq * wq * c].reshape(m, sh, sw, hq, wq, c)
        phases.fill(0)
        for i in range(kh):
            top, row = divmod(i * dh, sh)
            for j in range(kw):
                left, col = divmod(j * dw, sw)
                phases[:, row, col, top : top + oh, left : left + ow] += shares[i, j]
        image = image_buffer[: m * hq * sh * wq * sw * c].reshape(m, hq, sh, wq, sw, c)
        xp.copyto(image, phases.transpose(0, 3, 1, 4, 2, 5))
        image = image.reshape(m, hq * sh, wq * sw, c)
        dx[start:stop] = image[:, ph : ph + h, pw : pw + w].transpose(0, 3, 1, 2)
    return dx


def _spread_by_shifts(xp, g, weight, image_shape: tuple, geo: Geometry, groups: int):
    """:func:`correlate_transposed` at stride 1, where each kernel offset is one shift of the flat image.

    ``g`` is zero-padded to the (padded) image's width, so the share of offset ``(i, j)`` for output
    position ``q = y * W + x`` lands at ``q + i * dh * W + j * dw`` of the flat image, for every channel
    of an image at once: nine contiguous adds per image instead of nine strided ones per channel and
    kernel offset (W13's second convolution, one thread: 20 ms against 26; the product is 8 % larger).
    The shares that a shift moves past the end of the flat image are zeros (g's padding), so each add
    stops there; without padding the image is ``dx`` itself (no copy out of a padded image: 1.2 ms).
    """
    n, c, h, w = image_shape
    (kh, kw), (ph, pw), (dh, dw) = geo.kernel, geo.padding, geo.dilation
    hp, wp = h + 2 * ph, w + 2 * pw
    o, oh, ow = g.shape[1], g.shape[2], g.shape[3]
    per_group = c // groups
    plane = per_group * hp * wp  # one group's channels of one image, flat
    shifts = [i * dh * wp + j * dw for i in range(kh) for j in range(kw)]
    # weightᵀ with rows in (kernel offset, channel) order: [G, kh*kw*C/G, O/G]
    wt = weight.reshape(groups, o // groups, per_group, kh * kw).transpose(0, 3, 2, 1).reshape(groups, -1, o // groups)
    dx = xp.empty(image_shape, dtype=g.dtype)
    chunks = _chunks(n, c * kh * kw * hp * wp, g.itemsize)
    most = chunks[0][1]
    # g's rows at the image's width, and the shares of rows [0, oh) only: the rows below, and g's columns
    # past ow, are zeros written once a call
    g_wide = work_array(xp, "g_wide", (most, o, oh, wp), g.dtype)
    g_wide[..., ow:] = 0
    shares = work_array(xp, "shares", (most, groups, kh * kw * per_group, hp * wp), g.dtype)
    shares[..., oh * wp :] = 0
    image_buffer = work_array(xp, "image", (most, groups, plane), g.dtype) if ph or pw else None
    for start, stop in chunks:
        m = stop - start
        g_wide[:m, :, :, :ow] = g[start:stop]
        xp.matmul(wt, g_wide[:m].reshape(m, groups, o // groups, oh * wp), out=shares[:m, :, :, : oh * wp])
        by_offset = shares[:m].reshape(m, groups, kh * kw, plane)
        image = dx[start:stop].reshape(m, groups, plane) if image_buffer is None else image_buffer[:m]
        image[...] = by_offset[:, :, 0]  # offset (0, 0), no shift
        for k, shift in enumerate(shifts[1:], 1):
            image[:, :, shift:] += by_offset[:, :, k, : plane - shift]
        if image_buffer is not None:
            dx[start:stop] = image.reshape(m, c, hp, wp)[:, :, ph : ph + h, pw : pw + w]
    return dx


def correlate_weight(xp, x, g, kernel_shape: tuple, geo: Geometry, groups: int):
    """``∂L/∂w`` of :func:`correlate` for the output gradient ``g`` ``[N, O, oh, ow]``: ``kernel_shape``."""
    if kernel_shape[0] // groups >= g.shape[2] * g.shape[3]:
        return _weight_channels_last(xp, x, g, kernel_shape, geo, groups)
    n, o = x.shape[0], kernel_shape[0]
    oh, ow = g.shape[2], g.shape[3]
    rows = kernel_shape[1] * kernel_shape[2] * kernel_shape[3]
    g_by_group = g.reshape(n, groups, o // groups, oh * ow)
    # as windows @ gᵀ ([C/G*kh*kw, O/G] per image): OpenBLAS runs this product's shape faster than g @ windowsᵀ
    # (W13's second convolution, one thread: 24 ms against 28, the same flops)
    dw_t = xp.zeros((groups, rows, o // groups), dtype=g.dtype)
    view = window_view(xp, x, geo)
    chunks = _chunks(n, rows * groups * oh * ow, x.itemsize)
    windows_of = _channels_first_windows(xp, view, _window_buffer(xp, view, chunks), geo)
    for start, stop in chunks:
        cols = windows_of(start, stop).reshape(stop - start, groups, rows, oh * ow)
        dw_t += (cols @ g_by_group[start:stop].transpose(0, 1, 3, 2)).sum(0)
    return dw_t.transpose(0, 2, 1).reshape(kernel_shape)


def _spread_one_window(xp, g, weight, image_shape: tuple, geo: Geometry, groups: int):
    """:func:`correlate_transposed` where ``g`` is ``[N, O, 1, 1]``: each image has one window, ``weightᵀ @
    g``, so the batch's shares are one product ``g`` ``[N, O/G]`` times ``weight`` ``[O/G, C/G*kh*kw]`` per
    group, put at the padded image's corner. W17's first layer (a 1x1 noise image): 1.9 -> 0.2 ms; the
    spread by shifts made a product per image and 16 adds onto mostly empty images.
    """
    n, c, h, w = image_shape
    (kh, kw), (ph, pw), (dh, dw) = geo.kernel, geo.padding, geo.dilation
    g_by_group = g.reshape(n, groups, g.shape[1] // groups).transpose(1, 0, 2)  # [G, N, O/G]
    shares = (g_by_group @ _grouped(weight, groups)).transpose(1, 0, 2).reshape(n, c, kh, kw)
    if (h, w) == (kh, kw) and not (ph or pw) and (dh, dw) == (1, 1):
        return xp.ascontiguousarray(shares)
    padded = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=g.dtype)
    padded[:, :, : dh * (kh - 1) + 1 : dh, : dw * (kw - 1) + 1 : dw] = shares
    return xp.ascontiguousarray(padded[:, :, ph : ph + h, pw : pw + w])


def _windows_channels_last(xp, x, geo: Geometry, groups: int):
    """The windows of ``x`` ``[N, C, H, W]`` as a view ``[N, oh, ow, G, kh, kw, C/G]`` whose last axis is
    contiguous: the view is over a channels-last copy of ``x`` (padded in the same copy), so copying the
    windows moves runs of ``C/G`` numbers, where channels-first windows move runs of ``ow`` (4 at W17's
    second layer) or single numbers."""
    n, c, h, w = x.shape
    ph, pw = geo.padding
    last = work_array(xp, "padded_last", (n, h + 2 * ph, w + 2 * pw, c), x.dtype)
    last[:, :ph] = last[:, ph + h :] = last[:, :, :pw] = last[:, :, pw + w :] = 0
    last[:, ph : ph + h, pw : pw + w] = x.transpose(0, 2, 3, 1)
    unpadded = Geometry(geo.kernel, geo.stride, 0, geo.dilation)
    view = window_view(xp, last.transpose(0, 3, 1, 2), unpadded)  # [N, C, kh, kw, oh, ow]
    _, _, kh, kw, oh, ow = view.shape
    return view.reshape(n, groups, c // groups, kh, kw, oh, ow).transpose(0, 5, 6, 1, 3, 4, 2)


def _channels_last_chunks(xp, x, geo: Geometry, groups: int):
    """``(start, stop, cols)`` per chunk of images, ``cols`` their windows ``[m*oh*ow, G, kh*kw*C/G]`` (one row
    per output position), copied into one buffer."""
    view = _windows_channels_last(xp, x, geo, groups)
    n, oh, ow = view.shape[:3]
    rows = view.shape[4] * view.shape[5] * view.shape[6]
    chunks = _chunks(n, groups * rows * oh * ow, x.itemsize)
    buffer = _window_buffer(xp, view, chunks)
    for start, stop in chunks:
        cols = _windows_of(xp, view, start, stop, buffer)
        yield start, stop, cols.reshape((stop - start) * oh * ow, groups, rows)


def _correlate_channels_last(xp, x, weight, geo: Geometry, groups: int, out_hw: tuple):
    """:func:`correlate` where ``O/G >= oh*ow``: the products per image (``[O/G, rows] @ [rows, oh*ow]``) would be
    thin, so each chunk of images is one product, its windows as rows ``[m*oh*ow, kh*kw*C/G]`` times the
    weight ``[kh*kw*C/G, O/G]``, per group. W17, the input gradients of layers 2 and 3 (4x4 and 8x8 outputs):
    5.3 -> 4.0 and 5.1 -> 4.1 ms."""
    n, o = x.shape[0], weight.shape[0]
    oh, ow = out_hw
    per_group = o // groups
    # [O, C/G, kh, kw] -> [G, O/G, kh*kw*C/G], rows in the windows' (kh, kw, C/G) order, used transposed: this
    # copy moves runs of kh*kw numbers, a copy into [G, kh*kw*C/G, O/G] single ones (W17 layer 2: 0.04 ms, 0.36)
    w_rows = xp.ascontiguousarray(weight.transpose(0, 2, 3, 1)).reshape(groups, per_group, -1)
    out_last = work_array(xp, "products", (n * oh * ow, groups, per_group), x.dtype)
    for start, stop, cols in _channels_last_chunks(xp, x, geo, groups):
        rows_out = out_last[start * oh * ow : stop * oh * ow].transpose(1, 0, 2)
        xp.matmul(cols.transpose(1, 0, 2), w_rows.transpose(0, 2, 1), out=rows_out)
    out = xp.empty((n, o, oh, ow), dtype=x.dtype)  # a copy even where the transpose is a view (1x1 outputs)
    out[...] = out_last.reshape(n, oh, ow, o).transpose(0, 3, 1, 2)
    return out


def _weight_channels_last(xp, x, g, kernel_shape: tuple, geo: Geometry, groups: int):
    """:func:`correlate_weight` where ``O/G >= oh*ow``, so a product per image (``[C/G*kh*kw, O/G]``) is at
    least as large as its windows: per chunk of images, one product ``windowsᵀ`` ``[kh*kw*C/G, m*oh*ow]``
    times ``g`` ``[m*oh*ow, O/G]``, the sum over the images being the product's own inner sum, with the
    windows copied channels last (:func:`_windows_channels_last`).

    Products per image, summed after, made an ``[m, C*kh*kw, O]`` array to add up (W17's first layer,
    a 1x1 input: 16 MB, 6.3 ms of the layer's 8.3; one product: 0.5 ms). Channels-first windows with the
    images inside each row: W17's layers 2 and 3, 5.0 and 5.6 ms; channels last: 3.8 and 4.2 ms.
    """
    n, o = x.shape[0], kernel_shape[0]
    cg, kh, kw = kernel_shape[1], kernel_shape[2], kernel_shape[3]
    oh, ow = g.shape[2], g.shape[3]
    per_group = o // groups
    g_rows = xp.ascontiguousarray(g.transpose(0, 2, 3, 1)).reshape(n * oh * ow, groups, per_group)
    dw_t = xp.zeros((groups, kh * kw * cg, per_group), dtype=g.dtype)
    for start, stop, cols in _channels_last_chunks(xp, x, geo, groups):
        dw_t += cols.transpose(1, 2, 0) @ g_rows[start * oh * ow : stop * oh * ow].transpose(1, 0, 2)
    return dw_t.reshape(groups, kh, kw, cg, per_group).transpose(0, 4, 3, 1, 2).reshape(kernel_shape)
