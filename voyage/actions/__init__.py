"""The referee's verbs and services: sail, advance, act, fight, tow, plan, forecast,
doctor, demo. Each action and its transaction live here.

Imports the layers below: base ... store.
"""
