"""autograph"""
