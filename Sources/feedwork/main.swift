print("feedwork")
