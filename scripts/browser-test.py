"""Drives the inspector's page in headless Chromium; see scripts/browser-test.sh."""
import http.server
import json
import os
import shutil
import sys
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["INSPECTOR_URL"]
SCREEN = os.environ["APP_SCREEN"]
SCREENSHOT = os.environ["SCREENSHOT"]
OTHER_SCREENSHOT = os.environ.get("OTHER_SCREENSHOT", SCREENSHOT.replace(".png", "-other-port.png"))
RELOAD_SCREENSHOT = SCREENSHOT.replace(".png", "-reloaded.png")
BASE = URL.split("/#")[0]
TOKEN = URL.split("#token=")[1]


def fail(message):
    print("browser-test: FAILED: " + message)
    sys.exit(1)


def api(path):
    request = urllib.request.Request(BASE + path, headers={"Authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def command(line):
    """Sends one command to the app through its input FIFO (file descriptor 3)."""
    os.write(3, (line + "\n").encode())


def screen_after(marker, timeout=10):
    """The app's output after the last `> marker` line, once it appeared."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = open(SCREEN).read()
        index = text.rfind("> " + marker)
        if index >= 0 and text.count("\n", index) > 3:
            return text[index:]
        time.sleep(0.1)
    fail("the app did not print its screen after '%s'" % marker)


class OtherPort(http.server.BaseHTTPRequestHandler):
    """Another local web server (any app a developer runs): records every request it gets and
    serves a page that shows, and reports back, what its script can see."""
    requests = []
    PAGE = b"""<!doctype html><title>other port</title>
<body style="font: 20px sans-serif; padding: 2em">
<h1>A page on another 127.0.0.1 port</h1>
<p>document.cookie: <code id="cookie"></code></p>
<p>localStorage keys: <code id="storage"></code></p>
<script>
  const cookie = document.cookie, storage = Object.keys(localStorage).join(",");
  document.getElementById("cookie").textContent = JSON.stringify(cookie);
  document.getElementById("storage").textContent = JSON.stringify(storage);
  fetch("/report?cookie=" + encodeURIComponent(cookie))
    .then(() => { document.title = "reported"; });
</script>"""

    def do_GET(self):
        OtherPort.requests.append(self.requestline + "\n" + str(self.headers))
        body = self.PAGE if self.path == "/" else b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def check_other_port(driver, other, label):
    """Opens `other` and checks that nothing of the token reached it, from its script or in
    the requests its server received."""
    before = len(OtherPort.requests)
    driver.get(other)
    WebDriverWait(driver, 20).until(lambda d: d.title == "reported")
    cookie = driver.execute_script("return document.cookie")
    received = "\n".join(OtherPort.requests[before:])
    if TOKEN in cookie or "rkinspector" in cookie:
        fail("%s: a page on another port reads the token in document.cookie: %r" % (label, cookie))
    if TOKEN in received or "rkinspector" in received:
        fail("%s: the other port's server received the token:\n%s" % (label, received))
    if "/report?cookie=" not in received:
        fail("%s: the other port's page did not report back" % label)
    print("browser-test: %s: the page on another port sees document.cookie=%r, and its server "
          "got %d requests without the token" % (label, cookie, len(OtherPort.requests) - before))


other_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OtherPort)
threading.Thread(target=other_server.serve_forever, daemon=True).start()
OTHER = "http://127.0.0.1:%d/" % other_server.server_address[1]

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,900",
                 "--force-device-scale-factor=1", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
driver.set_page_load_timeout(30)
driver.set_script_timeout(10)
wait = WebDriverWait(driver, 20)
try:
    driver.get(URL)

    # The timeline shows the dispatched actions.
    def store_rows(_):
        rows = driver.find_elements(By.CSS_SELECTOR, ".row[data-kind='action']")
        texts = [row.text for row in rows]
        return rows if sum("TodoAction.add" in text for text in texts) >= 3 else False

    rows = wait.until(store_rows)
    # The address bar no longer shows the token (screen shares, screenshots, over-the-shoulder):
    # the page moved it from the fragment into its history entry's state.
    if TOKEN in driver.current_url or "#" in driver.current_url:
        fail("the address bar still shows the token: " + driver.current_url)
    if driver.execute_script("return history.state && history.state.token") != TOKEN:
        fail("the history entry's state does not hold the token: %r"
             % driver.execute_script("return history.state"))
    print("browser-test: the address bar shows " + driver.current_url + " (no token)")
    texts = "\n".join(row.text for row in rows)
    for title in ["Buy milk", "Write the inspector guide", "Call the plumber"]:
        if title not in texts:
            fail("the timeline does not show the action adding '%s':\n%s" % (title, texts))
    if "SessionAction" not in texts:
        fail("the timeline does not show the login action")
    print("browser-test: the timeline shows %d actions" % len(rows))

    # Open the first add and see its diff.
    first_add = next(row for row in rows if "Buy milk" in row.text and "TodoAction.add" in row.text)
    first_add.click()
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#d-diff .diff-row")))
    diff = driver.find_element(By.ID, "d-diff").text
    if ".todos.items[0]" not in diff or "Buy milk" not in diff:
        fail("the diff of the first add does not show the new todo:\n" + diff)
    print("browser-test: the diff shows " + diff.splitlines()[0])

    # Open the second add (a richer diff for the screenshot), then jump back to it.
    second_add = next(row for row in driver.find_elements(By.CSS_SELECTOR, ".row[data-kind='action']")
                      if "Write the inspector guide" in row.text and "TodoAction.add" in row.text)
    second_seq = second_add.get_attribute("data-seq")
    second_add.click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "d-seq"), "#" + second_seq))
    driver.find_element(By.ID, "jump-btn").click()
    wait.until(EC.visibility_of_element_located((By.ID, "live-btn")))

    # The store holds the old state: the API and the app's own screen say so.
    state = json.loads(api("/api/state?source=store"))
    text = json.dumps(state)
    if state.get("live") is not False or "Call the plumber" in text or "Write the inspector guide" not in text:
        fail("after the jump the store's state is not the one after #%s: %s" % (second_seq, text[:400]))
    command("list")
    screen = screen_after("list")
    if "Call the plumber" in screen or "Write the inspector guide" not in screen:
        fail("after the jump the app's screen is not the old list:\n" + screen)
    print("browser-test: after the jump the app shows the state after #" + second_seq)

    time.sleep(3)  # the "Jumped" notice fades out
    driver.save_screenshot(SCREENSHOT)

    # Back to live.
    driver.find_element(By.ID, "live-btn").click()
    wait.until(EC.invisibility_of_element_located((By.ID, "live-btn")))
    state = json.loads(api("/api/state?source=store"))
    if state.get("live") is not True or "Call the plumber" not in json.dumps(state):
        fail("back to live did not restore the newest state")
    print("browser-test: back to live")

    # A page on another local port, in a second tab beside the inspector...
    inspector_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    check_other_port(driver, OTHER, "second tab")
    driver.save_screenshot(OTHER_SCREENSHOT)
    driver.close()
    driver.switch_to.window(inspector_tab)

    # The token stays in the page: no cookie, no storage; the event stream works without one.
    own_cookie = driver.execute_script("return document.cookie")
    stored = driver.execute_script(
        "return JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")
    if TOKEN in own_cookie or TOKEN in stored:
        fail("the page keeps the token in a cookie or storage: %r %r" % (own_cookie, stored))
    command("add Streamed live")
    wait.until(lambda d: any("Streamed live" in row.text for row in
                             d.find_elements(By.CSS_SELECTOR, ".row[data-kind='action']")))
    print("browser-test: a new action arrives over the authenticated event stream")

    # A reload recovers the token from the history entry's state, the address still clean.
    driver.refresh()
    wait.until(store_rows)
    wait.until(EC.text_to_be_present_in_element((By.ID, "status-text"), "live"))
    if TOKEN in driver.current_url or "#" in driver.current_url:
        fail("after a reload the address bar shows the token: " + driver.current_url)
    print("browser-test: after a reload the page reads the timeline and the live stream again "
          "(address " + driver.current_url + ")")
    driver.save_screenshot(RELOAD_SCREENSHOT)

    # ...and, last, a page on another port in the same tab.
    check_other_port(driver, OTHER, "same tab")
except BaseException:
    driver.save_screenshot(SCREENSHOT)
    print("browser-test: the page at the failure is in " + SCREENSHOT)
    raise
finally:
    driver.quit()
    other_server.shutdown()
