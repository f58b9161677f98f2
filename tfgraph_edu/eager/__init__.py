"""eager"""
