"""jupyter"""
