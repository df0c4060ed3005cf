echo checking
