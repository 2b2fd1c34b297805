"""Browser tests of `feedwork serve`, in headless Chromium through Selenium.

Each test is a function `test_*(browser, context)`; the run prints one line per test and a
closing `N passed, N failed` line, and exits 1 when any failed.
"""
import argparse
import csv
from decimal import Decimal
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import traceback
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

DEFAULT_FEEDS = ["bbc-fruit", "currencylayer", "deliveries", "ecb", "flights", "leboncoin", "shop-products"]


class Context:
    def __init__(self, args):
        self.url = args.url.rstrip("/")
        self.feedwork = args.feedwork
        self.config = args.config
        self.screenshots = args.screenshots

    def feedwork_output(self, *arguments):
        return subprocess.run(
            [self.feedwork, *arguments, "-c", self.config], check=True, capture_output=True,
            cwd=os.path.dirname(self.config)).stdout

    def api(self, path):
        with urllib.request.urlopen(self.url + path) as response:
            return json.load(response)


def open_page(browser, context, path, screenshot):
    browser.get(context.url + path)
    browser.save_screenshot(os.path.join(context.screenshots, screenshot + ".png"))


def test_overview_lists_the_default_feeds(browser, context):
    open_page(browser, context, "/", "overview")
    listed = [row.get_attribute("data-feed") for row in browser.find_elements(By.CSS_SELECTOR, "tr.feed")]
    for feed in DEFAULT_FEEDS:
        assert feed in listed, f"{feed} not in {listed}"
    assert browser.find_elements(By.CSS_SELECTOR, "svg.chart"), "no chart of recent runs"


def test_feed_page_shows_runs_and_rejects(browser, context):
    open_page(browser, context, "/feeds/leboncoin", "feed")
    assert browser.find_elements(By.CSS_SELECTOR, "#runs tbody tr"), "no run listed"
    assert browser.find_element(By.ID, "rejects")


def test_classified_cards_of_one_category_come_urgent_first(browser, context):
    open_page(browser, context, "/entities/classified", "cards")
    # An explicit wait: an implicit one would also make each card without a badge wait for one.
    maison = WebDriverWait(browser, 10).until(expected_conditions.element_to_be_clickable(
        (By.XPATH, "//div[@data-field='category_id']//a[text()='Maison']")))
    maison.click()
    browser.save_screenshot(os.path.join(context.screenshots, "cards-maison.png"))
    # The condition's chip names the category as the facet did, not by its id.
    chip = browser.find_element(By.CSS_SELECTOR, ".condition[data-condition='category_id=4']")
    assert chip.text.startswith("category_id = Maison"), chip.text
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    assert cards, "no cards"
    shown = [card.get_attribute("data-key") for card in cards]
    rows = context.api("/api/entities/classified/rows?where=category_id%3D4&limit=500")["rows"]
    in_category = {row["_key"] for row in rows}
    assert len(shown) == min(len(in_category), 50), (len(shown), len(in_category))
    assert set(shown) <= in_category, "a card of another category"
    urgent = [bool(card.find_elements(By.CSS_SELECTOR, ".badge")) for card in cards]
    assert urgent == sorted(urgent, reverse=True), "an urgent ad after one that is not"
    assert urgent[0], "no urgent ad first"


def test_mirrored_images_show_from_the_store_and_a_placeholder_where_one_failed(browser, context):
    open_page(browser, context, "/entities/classified?feed=mirrored-ads", "cards-mirrored")
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(
        "return Array.from(document.images).every(function (i) { return i.complete; })"))
    browser.save_screenshot(os.path.join(context.screenshots, "cards-mirrored.png"))
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    assert len(cards) == 12, len(cards)
    images = browser.find_elements(By.CSS_SELECTOR, "article.card img")
    assert len(images) == 11, len(images)
    for image in images:
        source = image.get_attribute("src")
        assert re.search(r"/media/[0-9a-f]{64}$", source), source
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 0, f"{source} did not load"
    placeholders = browser.find_elements(By.CSS_SELECTOR, "article.card .placeholder")
    assert len(placeholders) == 1, len(placeholders)
    assert placeholders[0].text.endswith("/img/missing.png"), placeholders[0].text


def column_values(browser, field):
    headers = [header.get_attribute("data-field") for header in browser.find_elements(By.CSS_SELECTOR, "a.sort")]
    index = headers.index(field)
    return [row.find_elements(By.TAG_NAME, "td")[index].text for row in browser.find_elements(By.CSS_SELECTOR, "#rows tbody tr")]


def test_clicking_a_column_header_sorts_the_rows(browser, context):
    open_page(browser, context, "/entities/fruit", "table")
    before = column_values(browser, "price")
    browser.find_element(By.CSS_SELECTOR, "a.sort[data-field='price']").click()
    ascending = column_values(browser, "price")
    browser.find_element(By.CSS_SELECTOR, "a.sort[data-field='price']").click()
    descending = column_values(browser, "price")
    browser.save_screenshot(os.path.join(context.screenshots, "table-sorted.png"))
    # The fruit's price is money: "£1.49".
    numbers = lambda values: [Decimal(re.sub(r"[^0-9.-]", "", value)) for value in values]
    assert all(value.startswith("£") for value in before), before
    assert numbers(ascending) == sorted(numbers(before)), ascending
    assert numbers(descending) == sorted(numbers(before), reverse=True), descending
    assert ascending != before or descending != before


def test_paging_walks_to_the_last_page_of_100000_rows(browser, context):
    open_page(browser, context, "/entities/item?view=table&limit=500", "paging-first")
    seen = 0
    pages = 0
    while True:
        seen += len(browser.find_elements(By.CSS_SELECTOR, "#rows tbody tr"))
        pages += 1
        following = browser.find_elements(By.ID, "next-page")
        if not following:
            break
        following[0].click()
    browser.save_screenshot(os.path.join(context.screenshots, "paging-last.png"))
    assert browser.find_elements(By.ID, "last-page"), "the last page does not say so"
    assert seen == 100_000, seen
    assert pages == 200, pages


def test_a_download_link_returns_the_bytes_of_export(browser, context):
    open_page(browser, context, "/entities/classified?view=table&where=category%3DMaison&sort=-price", "download")
    link = browser.find_element(By.ID, "download-csv").get_attribute("href")
    with urllib.request.urlopen(link) as response:
        served = response.read()
    exported = context.feedwork_output(
        "export", "classified", "--format", "csv", "--where", "category=Maison", "--order", "-price")
    assert served == exported, f"{len(served)} bytes served, {len(exported)} exported"


def test_the_basket_prices_milk_and_two_eggs_like_the_command(browser, context):
    open_page(browser, context, "/basket", "basket-empty")
    browser.find_element(By.ID, "quantity-Milk").clear()
    browser.find_element(By.ID, "quantity-Milk").send_keys("1")
    browser.find_element(By.ID, "quantity-Eggs").clear()
    browser.find_element(By.ID, "quantity-Eggs").send_keys("2")
    browser.find_element(By.ID, "currency").clear()
    browser.find_element(By.ID, "currency").send_keys("EUR")
    browser.find_element(By.ID, "price-button").click()
    # Submitting the form loads a new page; the click may return before it has.
    total = WebDriverWait(browser, 10).until(expected_conditions.presence_of_element_located((By.ID, "total"))).text
    browser.save_screenshot(os.path.join(context.screenshots, "basket.png"))
    expected = json.loads(context.feedwork_output("price", "milk", "eggs=2", "--currency", "EUR", "--json"))["total"]
    assert total == expected, (total, expected)


def test_a_script_in_a_feed_value_shows_as_text(browser, context):
    open_page(browser, context, "/entities/item?view=table&where=name~script", "escaped")
    cells = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#rows td")]
    assert "<script>alert(1)</script>" in cells, cells
    try:
        browser.switch_to.alert
        raise AssertionError("the script ran: an alert is open")
    except NoAlertPresentException:
        pass


def test_searching_the_ads_for_a_french_word_marks_it_and_shows_a_script_as_text(browser, context):
    open_page(browser, context, "/entities/classified", "search-before")
    box = browser.find_element(By.ID, "search-q")
    box.send_keys("armoire")
    browser.find_element(By.ID, "search-button").click()
    WebDriverWait(browser, 10).until(expected_conditions.url_contains("q=armoire"))
    browser.save_screenshot(os.path.join(context.screenshots, "search.png"))
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    found = context.api("/api/entities/classified/rows?q=armoire&limit=500")["rows"]
    assert len(found) >= 2 and len(cards) == len(found), (len(cards), len(found))
    for card in cards:
        marks = [mark.text.lower() for mark in card.find_elements(By.TAG_NAME, "mark")]
        assert "armoire" in marks, card.text
    # The ad whose text holds a script: the script is text, in the snippet under its title.
    ad = browser.find_element(By.CSS_SELECTOR, "article.card[data-key='9000000001']")
    assert "<script>alert('armoire')</script>" in ad.text, ad.text
    try:
        browser.switch_to.alert
        raise AssertionError("the script ran: an alert is open")
    except NoAlertPresentException:
        pass
    # The table marks the word in the cells that hold it.
    open_page(browser, context, "/entities/classified?view=table&q=armoire", "search-table")
    marked = [mark.text.lower() for mark in browser.find_elements(By.CSS_SELECTOR, "#rows td mark")]
    assert marked and set(marked) == {"armoire"}, marked


def test_record_page_shows_the_record_and_its_child_rows(browser, context):
    key = context.api("/api/entities/product/rows?limit=1")["rows"][0]["_key"]
    open_page(browser, context, f"/entities/product/records/shop-products/{key}", "record")
    assert browser.find_elements(By.CSS_SELECTOR, "table.record"), "no record"
    assert "product__variants" in browser.page_source


def test_charts_of_runs_render_from_the_stored_runs(browser, context):
    open_page(browser, context, "/", "charts-overview")
    small = browser.find_elements(By.CSS_SELECTOR, "tr.feed svg.chart")
    assert len(small) >= len(DEFAULT_FEEDS), f"{len(small)} charts on the overview"
    open_page(browser, context, "/feeds/leboncoin", "charts-feed")
    chart = browser.find_element(By.CSS_SELECTOR, "#runs-chart svg.chart-large")
    assert chart.size["width"] >= 600 and chart.size["height"] > 100, chart.size
    runs = context.api("/api/feeds/leboncoin/runs")["runs"]
    for name, field in [("new", "inserted"), ("updated", "updated"), ("deleted", "deleted")]:
        bars = chart.find_elements(By.CSS_SELECTOR, f"rect.{name}")
        shown = sorted(int(bar.get_attribute("data-value")) for bar in bars)
        assert shown == sorted(run[field] for run in runs), (name, shown)
    assert len(chart.find_elements(By.CSS_SELECTOR, "rect.duration")) == len(runs)
    for entry in browser.get_log("browser"):
        # Pictures of earlier pages' feeds live on other hosts, which an offline machine cannot reach.
        external = entry.get("source") == "network" and context.url not in entry["message"]
        assert entry["level"] != "SEVERE" or external, entry


def run_sql(browser, context, statement, screenshot, parameters=None):
    """Types `statement` into the SQL page's form and runs it; then fills the fields of its
    parameters (the page shows one per :name) and runs it again."""
    open_page(browser, context, "/sql", screenshot + "-empty")
    area = browser.find_element(By.ID, "sql-statement")
    area.clear()
    area.send_keys(statement)
    browser.find_element(By.ID, "sql-run").click()
    if parameters:
        for name, value in parameters.items():
            field = WebDriverWait(browser, 60).until(
                expected_conditions.presence_of_element_located((By.ID, "parameter-" + name)))
            field.clear()
            field.send_keys(value)
        browser.find_element(By.ID, "sql-run").click()
    # The page answers when the statement ended: rows, or its error (a time-out takes seconds).
    WebDriverWait(browser, 60).until(lambda b: b.find_elements(By.ID, "sql-rows") or b.find_elements(By.ID, "sql-error"))
    browser.save_screenshot(os.path.join(context.screenshots, screenshot + ".png"))


def store_checksum(context):
    """The sha256 of the store's file (and of its WAL, if any): `serve` only reads it."""
    digest = hashlib.sha256()
    path = os.path.join(os.path.dirname(context.config), "feeds.sqlite")
    for name in [path, path + "-wal"]:
        if os.path.exists(name):
            with open(name, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()


def test_a_sql_query_with_a_parameter_returns_its_rows_and_the_same_csv(browser, context):
    run_sql(browser, context, "SELECT id, title, price FROM classified WHERE category_id = :category ORDER BY id",
            "sql-parameter", {"category": "4"})
    assert not browser.find_elements(By.ID, "sql-error"), browser.find_element(By.ID, "sql-error").text
    shown = [[cell.get_attribute("textContent") for cell in row.find_elements(By.TAG_NAME, "td")]
             for row in browser.find_elements(By.CSS_SELECTOR, "#sql-rows tbody tr")]
    rows = context.api("/api/entities/classified/rows?where=category_id%3D4&limit=500")["rows"]
    expected = sorted(int(row["id"]) for row in rows)
    assert expected, "no ad in category 4"
    assert [int(row[0]) for row in shown] == expected, ([row[0] for row in shown], expected)
    # The page's link shares the statement and its value.
    assert "category=4" in browser.find_element(By.ID, "sql-link").get_attribute("href")
    link = browser.find_element(By.ID, "sql-csv").get_attribute("href")
    with urllib.request.urlopen(link) as response:
        downloaded = list(csv.reader(io.StringIO(response.read().decode("utf-8"), newline="")))
    assert downloaded[0] == ["id", "title", "price"], downloaded[0]
    assert downloaded[1:] == shown, "the CSV download differs from the table shown"


def test_a_sql_statement_that_writes_is_refused_and_the_store_is_unchanged(browser, context):
    before = store_checksum(context)
    attached = os.path.join(os.path.dirname(context.config), "attached.sqlite")
    for index, statement in enumerate([
            "DELETE FROM classified", f"ATTACH DATABASE '{attached}' AS other", "PRAGMA writable_schema = ON",
            "SELECT load_extension('/nonexistent/evil')",
            "WITH gone AS (DELETE FROM classified RETURNING id) SELECT * FROM gone"]):
        run_sql(browser, context, statement, f"sql-refused-{index}")
        errors = browser.find_elements(By.ID, "sql-error")
        assert errors and errors[0].text, f"{statement}: no error shown"
        assert not browser.find_elements(By.ID, "sql-rows"), f"{statement}: rows shown"
    assert store_checksum(context) == before, "the store changed"
    assert not os.path.exists(attached), "ATTACH created a file"
    assert context.api("/api/sql?sql=SELECT%20count(*)%20AS%20n%20FROM%20classified")["rows"][0][0] > 100


def test_a_runaway_sql_query_stops_at_the_time_limit(browser, context):
    run_sql(browser, context,
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", "sql-runaway")
    message = browser.find_element(By.ID, "sql-error").text
    assert "time limit" in message and "--sql-time-limit" in message, message


def test_an_entity_page_opens_its_view_in_sql(browser, context):
    open_page(browser, context, "/entities/classified?view=table&where=category%3DMaison&sort=-price", "sql-from-entity")
    browser.find_element(By.ID, "open-in-sql").click()
    WebDriverWait(browser, 60).until(lambda b: b.find_elements(By.ID, "sql-rows") or b.find_elements(By.ID, "sql-error"))
    browser.save_screenshot(os.path.join(context.screenshots, "sql-from-entity-result.png"))
    assert not browser.find_elements(By.ID, "sql-error"), browser.find_element(By.ID, "sql-error").text
    headers = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#sql-rows thead th")]
    ids = [row.find_elements(By.TAG_NAME, "td")[headers.index("id")].get_attribute("textContent")
            for row in browser.find_elements(By.CSS_SELECTOR, "#sql-rows tbody tr")]
    rows = context.api("/api/entities/classified/rows?where=category%3DMaison&sort=-price&limit=500")["rows"]
    assert ids and ids == [str(row["id"]) for row in rows], (len(ids), len(rows))


def test_pages_log_no_console_errors(browser, context):
    paths = ["/", "/feeds/leboncoin", "/entities", "/entities/classified", "/entities/fruit?view=table",
             "/entities/classified?feed=mirrored-ads",
             "/entities/flight_offer", "/basket?Milk=1&Eggs=2&currency=EUR", "/sql?sql=SELECT%20*%20FROM%20_runs"]
    errors = []
    # Only these pages' messages: the SQL tests leave their refused statements' 400s in the log.
    browser.get_log("browser")
    for path in paths:
        browser.get(context.url + path)
        for entry in browser.get_log("browser"):
            # Pictures that feeds link to live on other hosts, which an offline machine cannot reach.
            external = entry.get("source") == "network" and context.url not in entry["message"]
            if entry["level"] == "SEVERE" and not external:
                errors.append(f"{path}: {entry['message']}")
    assert not errors, errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--feedwork", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--screenshots", required=True)
    context = Context(parser.parse_args())
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ["FEEDWORK_CHROMIUM"]
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,900",
                     "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(os.environ["FEEDWORK_CHROMEDRIVER"]), options=options)
    browser.implicitly_wait(0)
    tests = [(name, function) for name, function in globals().items() if name.startswith("test_")]
    passed = failed = 0
    try:
        for name, function in tests:
            try:
                function(browser, context)
                passed += 1
                print(f"ok {name}")
            except Exception:
                failed += 1
                print(f"FAILED {name}")
                traceback.print_exc()
    finally:
        browser.quit()
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
