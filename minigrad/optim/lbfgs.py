"""L-BFGS with an optional strong-Wolfe line search.

A port of PyTorch's ``torch.optim.LBFGS`` (``torch/optim/lbfgs.py``, BSD-3-Clause), itself after Mark
Schmidt's minFunc: the same two-loop recursion, the same stopping tests and the same bracketing and
cubic-interpolation line search (Nocedal & Wright, Algorithms 3.5 and 3.6), written on flat arrays.
"""

from __future__ import annotations

from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, mark_written
from ._validate import check_lr
from .optimizer import Optimizer, _number

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to ``bounds`` (default: the
    interval itself); the interval's middle when the cubic has none."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 * d1 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square**0.5
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, low), high)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step ``t`` along ``d`` meeting the strong Wolfe conditions: ``(loss, flat_grad, t, evaluations)``.

    ``evaluate(t)`` returns the loss and flat gradient at ``x + t * d``. First widen until a bracket holds a
    point satisfying the conditions, then zoom into it by cubic interpolation.
    """
    d_norm = float(abs(d).max())
    f_new, g_new = evaluate(t)
    evaluations = 1
    gtd_new = float(g_new @ d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f, bracket_g, bracket_gtd = (
                [t_prev, t],
                [f_prev, f_new],
                [g_prev, g_new],
                [gtd_prev, gtd_new],
            )
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f, bracket_g, bracket_gtd = (
                [t_prev, t],
                [f_prev, f_new],
                [g_prev, g_new],
                [gtd_prev, gtd_new],
            )
            break
        t_next = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # zoom: shrink the bracket until a point satisfies the conditions or it is too small to shrink
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        # a point too close to an end makes too little progress: move it inward, unless it just did
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insufficient_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        f_new, g_new = evaluate(t)
        evaluations += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high], bracket_g[high], bracket_gtd[high] = t, f_new, g_new, gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low], bracket_g[low], bracket_gtd[low] = t, f_new, g_new, gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evaluations


class LBFGS(Optimizer):
    """L-BFGS: quasi-Newton steps from the last ``history_size`` curvature pairs.

    ``step(closure)`` needs a closure that zeroes the gradients, computes the loss, calls
    ``backward()`` and returns the loss; it runs up to ``max_iter`` iterations (``max_eval`` closure
    calls) and returns the first loss. ``line_search_fn="strong_wolfe"`` picks each step length by a
    strong-Wolfe line search; otherwise the step is ``lr`` (the first scaled by ``1 / sum|g|``).
    All parameters form one group, as in PyTorch. Step lengths and curvature scalars are Python floats
    (PyTorch keeps some as tensors of the parameters' dtype): in float64 the iterates are PyTorch's, in
    float32 they agree to rounding, which the line search's branches can amplify over many iterations.
    """

    def __init__(
        self,
        params,
        lr=1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ):
        check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(
            lr=lr,
            max_iter=max_iter,
            max_eval=max_eval,
            tolerance_grad=tolerance_grad,
            tolerance_change=tolerance_change,
            history_size=history_size,
            line_search_fn=line_search_fn,
        )
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def add_param_group(self, group: dict) -> None:
        if self.param_groups:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        super().add_param_group(group)

    # ------------------------------------------------------------ flat views of the parameters
    def _xp(self):
        return self._params[0].device.xp

    def _flat_grad(self):
        xp = self._xp()
        parts = [
            xp.zeros(p.array.size, p.array.dtype) if p._grad is None else p._grad.array.reshape(-1)
            for p in self._params
        ]
        return xp.concatenate(parts)

    def _add_step(self, t, direction) -> None:
        offset = 0
        for p in self._params:
            n = p.array.size
            p.array += t * direction[offset : offset + n].reshape(p.array.shape)
            mark_written(p)
            offset += n

    def _copy_params(self) -> list:
        return [p.array.copy() for p in self._params]

    def _set_params(self, values) -> None:
        for p, value in zip(self._params, values):
            p.array[...] = value
            mark_written(p)

    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations; ``closure`` re-evaluates the loss and its gradients."""
        if closure is None:
            raise RuntimeError("LBFGS.step() needs a closure that re-evaluates the model and returns the loss")
        group = self.param_groups[0]
        lr = _number(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        if line_search_fn not in (None, "strong_wolfe"):
            raise RuntimeError("only 'strong_wolfe' is supported")

        def evaluate():
            with enable_grad():
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with no_grad():
            orig_loss = evaluate()
            loss = float(orig_loss)
            current_evals = 1
            state["func_evals"] += 1
            flat_grad = self._flat_grad()
            if abs(flat_grad).max() <= tolerance_grad:
                return orig_loss

            d, t = state.get("d"), state.get("t")
            old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
            h_diag, prev_flat_grad, prev_loss = state.get("H_diag"), state.get("prev_flat_grad"), state.get("prev_loss")
            n_iter = 0
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                if state["n_iter"] == 1:
                    d = -flat_grad
                    old_dirs, old_stps, ro = [], [], []
                    h_diag = 1
                else:
                    d, h_diag = self._direction(
                        flat_grad, prev_flat_grad, d, t, old_dirs, old_stps, ro, h_diag, history_size
                    )
                prev_flat_grad = flat_grad.copy()
                prev_loss = loss
                t = (min(1.0, 1.0 / float(abs(flat_grad).sum())) if state["n_iter"] == 1 else 1.0) * lr
                gtd = float(flat_grad @ d)
                if gtd > -tolerance_change:  # not a descent direction
                    break

                evaluations = 0
                if line_search_fn is not None:
                    start = self._copy_params()

                    def along(step_length, direction=d, start=start):
                        self._add_step(step_length, direction)
                        value = float(evaluate())
                        grad = self._flat_grad()
                        self._set_params(start)
                        return value, grad

                    loss, flat_grad, t, evaluations = _strong_wolfe(
                        along, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals
                    )
                    self._add_step(t, d)
                    optimal = abs(flat_grad).max() <= tolerance_grad
                else:
                    self._add_step(t, d)
                    optimal = False
                    if n_iter != max_iter:  # the last iteration's loss is left for the next step's closure
                        loss = float(evaluate())
                        flat_grad = self._flat_grad()
                        optimal = abs(flat_grad).max() <= tolerance_grad
                        evaluations = 1
                current_evals += evaluations
                state["func_evals"] += evaluations

                if n_iter == max_iter or current_evals >= max_eval or optimal:
                    break
                if abs(d * t).max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                    break

            state.update(
                d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                prev_flat_grad=prev_flat_grad, prev_loss=prev_loss,
            )  # fmt: skip
        return orig_loss

    @staticmethod
    def _direction(flat_grad, prev_flat_grad, d, t, old_dirs, old_stps, ro, h_diag, history_size):
        """The two-loop recursion: ``-H g`` from the stored pairs, after adding the last step's pair when its
        curvature ``y.s`` is positive enough. Returns the direction and the new initial Hessian scale."""
        y = flat_grad - prev_flat_grad
        s = d * t
        ys = float(y @ s)
        if ys > 1e-10:
            if len(old_dirs) == history_size:
                old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(1.0 / ys)
            h_diag = ys / float(y @ y)
        alphas = [0.0] * len(old_dirs)
        q = -flat_grad
        for i in range(len(old_dirs) - 1, -1, -1):
            alphas[i] = float(old_stps[i] @ q) * ro[i]
            q = q - alphas[i] * old_dirs[i]
        r = q * h_diag
        for i in range(len(old_dirs)):
            beta = float(old_dirs[i] @ r) * ro[i]
            r = r + (alphas[i] - beta) * old_stps[i]
        return r, h_diag

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` saved (the flat history arrays are restored as saved)."""
        saved = state_dict["state"]
        super().load_state_dict({"state": {}, "param_groups": state_dict["param_groups"]})
        if saved:
            entries = next(iter(saved.values()))
            self.state[self._params[0]] = {k: _host_array(v) for k, v in entries.items()}


def _host_array(value):
    return value.array.copy() if isinstance(value, Tensor) else value
