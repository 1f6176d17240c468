# The Python-level layer of the sandbox (defence in depth; the kernel layers
# are the boundary). Run as: python3 -I -S -B -c <this> [kernel-only]
# stdin: {"code": str, "input_data": {identifier: json}} (checked in Go first)
# fd 3:  one JSON object {"error": "Type: message"} or {} when the code ran.
# stdout/stderr: the user's own prints; stderr also gets the user's traceback.
import sys


def _sandbox_main():
    import json

    req = json.loads(sys.stdin.buffer.read())
    code = req["code"]
    data = req.get("input_data") or {}
    kernel_only = sys.argv[1:] == ["kernel-only"]
    result = open(3, "w", encoding="utf-8", closefd=True)

    def finish(obj):
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        result.write("\n" + json.dumps(obj))  # its own last line, whatever the code wrote to fd 3
        result.flush()

    walking = [False]  # the audit hook lets the prelude itself read tb_frame

    def user_frames_only(tb):
        # Show only frames of the user's code: stdlib frames carry host paths.
        # Nothing here calls user code, so the walk cannot be hijacked.
        lines = code.splitlines()
        out = []
        while tb is not None:
            f = tb.tb_frame.f_code
            if f.co_filename == "<code>":
                n = tb.tb_lineno
                src = lines[n - 1].strip() if 0 < n <= len(lines) else ""
                out.append('  line %d, in %s\n    %s\n' % (n, f.co_name, src))
            tb = tb.tb_next
        if len(out) > 13:  # deep recursion: keep the outer and inner frames
            out = out[:3] + ["  ... %d frames omitted\n" % (len(out) - 13)] + out[-10:]
        return out

    def describe(e):
        msg = str(e)
        name = type(e).__name__
        if isinstance(e, MemoryError):
            return "MemoryError: memory limit (512 MiB) reached" + (": " + msg if msg else "")
        return name + (": " + msg if msg else "")

    if kernel_only:
        # Test-only: no import whitelist, no restricted builtins, no audit
        # hook. Proves the kernel layers hold on their own.
        g = {"__name__": "__main__"}
        g.update(data)
        try:
            exec(compile(code, "<code>", "exec"), g)
        except BaseException as e:
            finish({"error": describe(e)})
            return
        finish({})
        return

    import builtins
    # The allowed modules and the helpers they import lazily (datetime.strftime
    # imports time, strptime imports _strptime/locale/calendar, Counter uses
    # heapq): import them all now, before the audit hook, so nothing is read
    # from disk afterwards.
    import json, math, datetime, statistics, itertools, functools, collections, re, string, random  # noqa
    import collections.abc, time, _strptime, locale, calendar, heapq, bisect, fractions, decimal  # noqa
    import operator, numbers, keyword, enum, types, copy, reprlib  # noqa

    # namedtuple asks sys._getframe for the caller's module; give it one so
    # that the audit hook can refuse sys._getframe (frame walks) to the user.
    real_namedtuple = collections.namedtuple

    def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
        return real_namedtuple(typename, field_names, rename=rename, defaults=defaults,
                               module=module or "__main__")
    collections.namedtuple = namedtuple

    allowed = ("collections", "datetime", "functools", "itertools", "json",
               "math", "random", "re", "statistics", "string")
    allowed_set = frozenset(allowed)
    helpers = frozenset(("time", "_strptime", "locale", "_locale", "calendar", "heapq",
                         "_heapq", "bisect", "_bisect", "operator", "_operator", "numbers",
                         "keyword", "enum", "types", "copy", "reprlib", "fractions",
                         "decimal", "_decimal", "_datetime", "_json", "_random",
                         "_sha512", "_statistics", "_collections", "_functools",
                         "_sre", "_string"))
    modules = sys.modules
    real_import = builtins.__import__
    allowed_text = ", ".join(allowed)

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level != 0:
            raise ImportError("relative imports are not available in the sandbox")
        top = name.partition(".")[0]
        if top in allowed_set or (name in helpers and name in modules):
            return real_import(name, globals, locals, fromlist, level)
        raise ImportError("import of %r is not allowed in the sandbox; allowed modules: %s"
                          % (name, allowed_text), name=name)

    removed = ("open", "eval", "exec", "compile", "input", "breakpoint", "help",
               "exit", "quit", "copyright", "credits", "license")
    safe = {k: v for k, v in builtins.__dict__.items() if k not in removed}
    safe["__import__"] = guarded_import

    # Events the allowed modules raise while they work: namedtuple compiles
    # and execs its class; classes get attributes set. Everything else (open, os.*, socket, ctypes, subprocess, frame
    # and gc walks, settrace, code objects...) raises.
    denied_setattr = frozenset(("__code__", "__globals__", "__closure__", "__builtins__",
                                "__defaults__", "__kwdefaults__"))

    def hook(event, args):
        if event == "import":
            top = args[0].partition(".")[0]
            if top in allowed_set or args[0] in helpers:
                return
        elif event in ("compile", "exec", "time.sleep"):
            return
        elif event == "object.__getattr__" and walking[0]:
            return
        elif event == "object.__setattr__":
            if args[1] not in denied_setattr:
                return
        raise RuntimeError("blocked by the sandbox: %s" % event)

    g = {"__name__": "__main__", "__builtins__": safe}
    g.update(data)
    try:
        compiled = compile(code, "<code>", "exec")
    except SyntaxError as e:
        finish({"error": "SyntaxError: %s (line %s)" % (e.msg, e.lineno)})
        return
    sys.addaudithook(hook)
    try:
        exec(compiled, g)
    except BaseException as e:
        walking[0] = True
        try:
            frames = user_frames_only(e.__traceback__)
        finally:
            walking[0] = False
        text = describe(e)
        try:
            sys.stderr.write("Traceback (most recent call last):\n" + "".join(frames) + text + "\n")
        except BaseException:
            pass
        finish({"error": text})
        return
    finish({})


_sandbox_main()
