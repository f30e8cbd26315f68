from .deep import deep, _private  #@ deep:r:deepmod deep@2:r:deep _private:r:private

__all__ = ["deep"]  #@ deep:r:deep
