"""Drives the inspector's page in headless Chromium; see scripts/browser-test.sh."""
import json
import os
import shutil
import sys
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


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,900",
                 "--force-device-scale-factor=1", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
wait = WebDriverWait(driver, 20)
try:
    driver.get(URL)

    # The timeline shows the dispatched actions.
    def store_rows(_):
        rows = driver.find_elements(By.CSS_SELECTOR, ".row[data-kind='action']")
        texts = [row.text for row in rows]
        return rows if sum("TodoAction.add" in text for text in texts) >= 3 else False

    rows = wait.until(store_rows)
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
except BaseException:
    driver.save_screenshot(SCREENSHOT)
    print("browser-test: the page at the failure is in " + SCREENSHOT)
    raise
finally:
    driver.quit()
