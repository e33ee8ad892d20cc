#!/usr/bin/python3
# Open a page in headless Chromium, wait until a JavaScript condition holds
# (polled, bounded by real time), then print the page's DOM and optionally
# save a screenshot. The report tests use it instead of --dump-dom with
# --virtual-time-budget, which dumps when a budget of virtual time is
# spent, not when the page is done: on a loaded machine the page was
# still at "loading...".
# Chromium is driven through the DevTools protocol on a pipe (fds 3 and 4,
# --remote-debugging-pipe): JSON messages ended by a NUL byte.
# Usage: page_dump.py [--until JS] [--bound S] [--size W,H] [--screenshot PNG]
#                     [--profile DIR] CHROMIUM URL   (DOM on stdout)
# Exit 0 when the condition held; 3 (the DOM printed all the same) when
# the bound passed first; 1 when Chromium failed.
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

UNTIL = 'document.getElementById("status").dataset.status !== "loading"'


class Browser:
    def __init__(self, chromium, args, deadline):
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        self.deadline = deadline
        self.buf = b""
        self.next_id = 0

        # In the child: fds 3 and 4, by way of fds above both (either
        # pipe end may be 3 or 4 already).
        def fds():
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (cmd_r, res_w)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)
        self.proc = subprocess.Popen([chromium, "--remote-debugging-pipe"] + args,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     preexec_fn=fds, pass_fds=(3, 4))
        os.close(cmd_r)
        os.close(res_w)

    def read_message(self):
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.res_r], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium within the bound")
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its pipe (did it start?)")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    # One command; its result (events in between are dropped).
    def call(self, method, session=None, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.read_message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m["result"]

    def evaluate(self, session, expr):
        r = self.call("Runtime.evaluate", session, expression=expr, returnByValue=True)
        return r.get("result", {}).get("value")

    def close(self):
        try:
            self.call("Browser.close")
        except (TimeoutError, EOFError, RuntimeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# Poll the condition every 0.1 s until it holds or the bound passes.
def wait_until(b, session, until, deadline):
    while time.monotonic() < deadline:
        try:
            if b.evaluate(session, "!!(%s)" % until):
                return True
        except RuntimeError:
            pass    # the page not there yet (navigating): asked again
        time.sleep(0.1)
    return False


def main():
    ap = argparse.ArgumentParser(description="dump a page's DOM once a condition holds")
    ap.add_argument("--until", default=UNTIL, help="a JavaScript condition (default: the report's footer left 'loading')")
    ap.add_argument("--bound", type=float, default=240, help="seconds to wait at most (default 240)")
    ap.add_argument("--size", default="1400,900", help="window size W,H")
    ap.add_argument("--screenshot", help="save a PNG of the page here")
    ap.add_argument("--profile", help="Chromium's --user-data-dir (default: a new one, removed after)")
    ap.add_argument("chromium")
    ap.add_argument("url")
    a = ap.parse_args()
    deadline = time.monotonic() + a.bound
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
            "--hide-scrollbars", "--window-size=" + a.size]
    tmp = tempfile.mkdtemp(prefix="page-dump-")
    args.append("--user-data-dir=" + (a.profile or tmp))
    try:
        return dump(a, Browser(a.chromium, args + ["about:blank"], deadline), deadline)
    finally:
        # Chromium's helpers may still write there for a moment.
        for _ in range(50):
            shutil.rmtree(tmp, ignore_errors=True)
            if not os.path.exists(tmp):
                break
            time.sleep(0.1)


def dump(a, b, deadline):
    try:
        target = b.call("Target.createTarget", url="about:blank")["targetId"]
        session = b.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        # The page's own size: a new target does not take --window-size's.
        w, h = (int(x) for x in a.size.split(","))
        b.call("Emulation.setDeviceMetricsOverride", session, width=w, height=h,
               deviceScaleFactor=1, mobile=False)
        b.call("Page.navigate", session, url=a.url)
        held = wait_until(b, session, a.until, deadline)
        # A bound that passed still leaves time to see what the page said.
        b.deadline = time.monotonic() + 30
        sys.stdout.write("<!DOCTYPE html>\n" + b.evaluate(session, "document.documentElement.outerHTML") + "\n")
        if a.screenshot:
            png = b.call("Page.captureScreenshot", session, format="png")["data"]
            with open(a.screenshot, "wb") as f:
                f.write(base64.b64decode(png))
    except (TimeoutError, EOFError, RuntimeError, OSError) as e:
        print("page_dump.py: %s: %s" % (a.url, e), file=sys.stderr)
        return 1
    finally:
        b.close()
    if not held:
        print("page_dump.py: %s: '%s' did not hold within %g s" % (a.url, a.until, a.bound), file=sys.stderr)
        return 3
    return 0


sys.exit(main())
